import type { HoldReason } from '../../../results/domain/anti-cheat/review-ceiling';
import { isLeaderboardMode, isLeaderboardMode2, isoWeekStart } from '../../../leaderboards/leaderboard-rules';
import type { ResultRow } from '../import-records';
import { resultProblem } from '../live-rules';
import { accept, refuse, type Mapped } from '../mapped';
import type { Adjustment } from '../import-records';
import { resultRow, type RecordTarget } from './account-records';
import {
  inBotGate,
  judgeKeyTiming,
  judgeResult,
  type JudgedResult,
  type ResultsConfiguration,
  type Verdict,
} from '../../../results/domain/judge';

/** Measurements a stored result never keeps (an export cannot carry them): their absence alone holds nothing. */
const NOT_STORED = new Set(['charTotal', 'keySpacing', 'keyDuration']);

/** A review record of the file, about one of the account's results. */
export interface FileReview {
  status: string;
  /** Set once the file's result it names has been judged. */
  seen: boolean;
}

export interface UntrustedResultsContext {
  target: RecordTarget;
  /** The account's leaderboard opt-out, as the file says (kept): it lets results under 75 % accuracy stand, as live. */
  optedOut: boolean;
  config: ResultsConfiguration;
  now: number;
  /** The file's review records, by result id. */
  reviews: ReadonlyMap<string, FileReview>;
}

const describe = (figures: Record<string, unknown>) =>
  Object.entries(figures)
    .map(([key, value]) => `${key} ${String(value)}`)
    .join(', ');

/** The stored result as the judge reads a submitted one (what a stored result does not keep stays absent). */
function judged(row: ResultRow): JudgedResult {
  const chart = row.chart_data as JudgedResult['chartData'] | null;
  return {
    wpm: row.wpm,
    rawWpm: row.raw_wpm,
    acc: row.acc,
    mode: row.mode,
    mode2: row.mode2,
    language: row.language,
    testDuration: row.test_duration,
    afkDuration: row.afk_duration,
    consistency: row.consistency,
    bailedOut: row.bailed_out,
    funbox: row.funbox,
    ...(row.char_stats === null ? {} : { charStats: row.char_stats }),
    ...(row.key_consistency === null ? {} : { keyConsistency: row.key_consistency }),
    ...(chart === null ? {} : { chartData: chart }),
    // A custom test's text and limit are not stored: it is judged by the shortest limit the live route takes, so
    // only an abandoned one under 15 s is too short.
    ...(row.mode === 'custom' ? { customText: { limit: { mode: 'word', value: 10 } } } : {}),
  };
}

/**
 * The results of an untrusted account file (issue 29), each judged as `POST /results` judges a submission, in file
 * order (oldest first): the live rules of every value, too short, accuracy, funboxes, time away and the consistency
 * checks (judgeResult; no hash: a stored result has none), the key data a fast timed test needs (judgeKeyTiming), and
 * the spacing between results. Refused: into the rejects file with the live message and check. Held as the live
 * route holds: saved, off the boards until a moderator decides. Besides:
 * - a result the source held or rejected stays held (a moderator here decides; an approval in the file counts for
 *   nothing);
 * - a result that could stand on a board (a board's mode, or this week's XP) is held with the reason `imported`:
 *   a stored result keeps no key timings, so nothing here vouches for it (docs/account-files.md);
 * - its XP and personal-best mark are computed by the writer, never taken from the file.
 */
export class UntrustedResults {
  private latest: number | null = null;
  /** Refused and held results by check (the summary). */
  readonly refused = new Map<string, number>();
  readonly held = new Map<string, number>();

  constructor(private readonly context: UntrustedResultsContext) {}

  map(data: unknown): Mapped<ResultRow[]> {
    const row = resultRow(data, this.context.target);
    if (typeof row === 'string') return refuse(row);
    const problem = resultProblem(row);
    if (problem !== null) return this.refuse('values', problem);
    const { config, now } = this.context;
    if (row.timestamp > now + 60_000) return this.refuse('future', 'a result from the future');
    const earliest =
      this.latest === null ? null : this.latest + (row.test_duration + row.incomplete_test_seconds) * 1000;
    // One second of slack, as the live route (it stores whole seconds).
    if (earliest !== null && row.timestamp < earliest - 1000)
      return this.refuse('spacing', 'Invalid result spacing (462, check spacing)');

    const verdict = this.verdict(row);
    if (verdict.outcome === 'refuse') {
      const { message, status, check, figures } = verdict.refusal;
      const detail = describe(figures);
      return this.refuse(
        check,
        `${message} (${status}, check ${check}${detail === '' ? '' : `: ${detail}`})`,
      );
    }
    this.latest = Math.max(this.latest ?? 0, row.timestamp);

    const holds = verdict.outcome === 'hold' ? verdict.holds.flatMap(storedHold) : [];
    const review = this.context.reviews.get(row.id);
    if (review !== undefined) {
      review.seen = true;
      if (review.status !== 'approved') holds.push({ check: 'source', figures: { status: review.status } });
    }
    if (config.antiCheat.enabled && config.antiCheat.review.enabled && this.couldStandOnABoard(row))
      holds.push({ check: 'imported', figures: { from: 'an untrusted account file' } });
    const adjustments: Adjustment[] = [];
    if (holds.length > 0) {
      row.held = { reasons: holds, heldAt: now };
      for (const hold of holds) this.held.set(hold.check, (this.held.get(hold.check) ?? 0) + 1);
      adjustments.push({
        path: 'review',
        action: 'changed',
        reason: `held for review: ${holds.map((h) => h.check).join(', ')}`,
      });
    }
    // Computed by the writer as a submission's would be (result-replay.ts).
    row.xp = 0;
    row.is_pb = false;
    return accept([row], adjustments);
  }

  private verdict(row: ResultRow): Verdict {
    const { config, optedOut } = this.context;
    const verdict = judgeResult(judged(row), { optedOut }, config);
    if (verdict.outcome === 'refuse') return verdict;
    // The live route refuses a fast timed test without key timings (464). A stored result keeps their summary: with
    // it, the timings were there; the bot checks cannot run on a summary (the `imported` hold covers them).
    const summaries = row.key_spacing_stats !== null && row.key_duration_stats !== null;
    if (!summaries && inBotGate(judged(row), optedOut, config)) {
      const timing = judgeKeyTiming(judged(row), optedOut, config);
      if (timing.outcome === 'refuse') return timing;
    }
    return verdict;
  }

  /** A board's mode (all-time and daily boards), or this week's results (the weekly XP board). */
  private couldStandOnABoard(row: ResultRow): boolean {
    const mode = row.mode;
    if (isLeaderboardMode(mode) && isLeaderboardMode2(mode, row.mode2)) return true;
    return row.timestamp >= isoWeekStart(this.context.now);
  }

  private refuse(check: string, reason: string): Mapped<ResultRow[]> {
    this.refused.set(check, (this.refused.get(check) ?? 0) + 1);
    return refuse(reason);
  }
}

/** A hold of the judge as it applies to a stored result: a missing measurement an export never carries holds nothing. */
function storedHold(hold: HoldReason): HoldReason[] {
  if (hold.check !== 'measurements') return [hold];
  const missing = String(hold.figures.missing ?? '')
    .split(',')
    .filter((field) => field !== '' && !NOT_STORED.has(field));
  return missing.length === 0 ? [] : [{ check: 'measurements', figures: { missing: missing.join(',') } }];
}
