import { funboxDifficulties, funboxesAllowPb } from '../../../results/domain/funbox-rules';
import { canSetPersonalBest, isNewPersonalBest } from '../../../results/domain/personal-best';
import { nextStreak } from '../../../results/domain/streak';
import type { HeldResultFacts } from '../../../results/review/result-reviews.repository';
import type { PersonalBestRow } from '../../../users/personal-bests';
import { calculateXp, type XpConfig } from '../../../xp/xp-calculator';
import type { ResultHold, ResultRow } from '../import-records';

const DAY_MS = 86_400_000;

/** What a submission reads of its account, as stored before a batch (locked by the caller). */
export interface ReplayAccount {
  uid: string;
  name: string;
  xp: number;
  lastResultAt: number | null;
  streak: {
    length: number;
    maxLength: number;
    lastResultTimestamp: number | null;
    hourOffset: number | null;
  };
}

/** A stored best, by owner (the uid, or a tag id) and bucket. */
export interface StoredBest {
  owner: string;
  bucket: string;
  wpm: number;
}

/** The key of a personal-best bucket. */
export function bucketOf(
  r: Pick<ResultRow, 'mode' | 'mode2' | 'language' | 'difficulty' | 'punctuation' | 'numbers' | 'lazy_mode'>,
): string {
  return [r.mode, r.mode2, r.language, r.difficulty, r.punctuation, r.numbers, r.lazy_mode].join('\u0000');
}

export interface BestWrite {
  /** The account's uid, or the tag's id for a tag best. */
  owner: string;
  uid: string;
  row: PersonalBestRow;
  /** The held result the account's best comes from (never for a tag's). */
  heldResultId: string | null;
}

export interface AccountChange {
  uid: string;
  completedTests: number;
  startedTests: number;
  timeTyped: number;
  xp: number;
  streak: ReplayAccount['streak'];
  lastResultAt: number;
}

export interface ReviewWrite {
  resultId: string;
  uid: string;
  hold: ResultHold;
  result: HeldResultFacts;
}

export interface Replay {
  /** The rows to store: XP and `is_pb` computed, tags the account owns only, the account's name where none. */
  rows: ResultRow[];
  /** The new bests (each beats what was stored, and every earlier best of this replay). */
  bests: BestWrite[];
  accounts: AccountChange[];
  reviews: ReviewWrite[];
  /** Days since the epoch (UTC) → results, per account. */
  activity: { uid: string; day: number; tests: number }[];
}

function correctedEverything(stats: number[] | null): boolean {
  // charStats: correct, incorrect, extra, missed.
  return stats !== null && stats[1] === 0 && stats[2] === 0 && stats[3] === 0;
}

/**
 * What `POST /results` does to an account, replayed for results written after the fact (the untrusted account import,
 * results reinstated by an operator): each new result in time order adds a completed test, its restarts, its typing
 * time, the XP the live rules give it then (streak, daily bonus and all), moves the streak and the last result time,
 * and sets the personal best (and its tags' bests) it beats, held off the boards when the result is held. A result
 * older than the account's last one moves neither the streak nor a daily bonus (the live route never saw it come in
 * that order). Pure: the caller reads the accounts, bests and owned tags, and writes what this returns.
 */
export function replayResults(
  newRows: readonly ResultRow[],
  accounts: ReadonlyMap<string, ReplayAccount>,
  stored: { bests: readonly StoredBest[]; tagsOf: ReadonlyMap<string, ReadonlySet<string>> },
  xpConfig: XpConfig,
): Replay {
  const best = new Map(stored.bests.map((b) => [`${b.owner}\u0001${b.bucket}`, b.wpm]));
  const state = new Map<string, AccountChange & { account: ReplayAccount }>();
  const bests = new Map<string, BestWrite>();
  const activity = new Map<string, { uid: string; day: number; tests: number }>();
  const reviews: ReviewWrite[] = [];
  const rows: ResultRow[] = [];
  const ordered = [...newRows].sort((a, b) => a.timestamp - b.timestamp || (a.id < b.id ? -1 : 1));
  for (const input of ordered) {
    const account = accounts.get(input.uid);
    if (account === undefined) continue;
    let s = state.get(input.uid);
    if (s === undefined) {
      s = {
        uid: input.uid,
        account,
        completedTests: 0,
        startedTests: 0,
        timeTyped: 0,
        xp: 0,
        streak: { ...account.streak },
        lastResultAt: account.lastResultAt ?? 0,
      };
      state.set(input.uid, s);
    }
    const ts = input.timestamp;
    const inOrder = s.streak.lastResultTimestamp === null || ts > s.streak.lastResultTimestamp;
    if (inOrder) {
      const next = nextStreak(s.streak, ts);
      s.streak = { ...s.streak, length: next.length, maxLength: next.maxLength, lastResultTimestamp: ts };
    }
    const previous = s.account.lastResultAt === null && s.completedTests === 0 ? null : s.lastResultAt;
    const xp = calculateXp(
      {
        mode: input.mode,
        acc: input.acc,
        testDuration: input.test_duration,
        afkDuration: input.afk_duration,
        punctuation: input.punctuation,
        numbers: input.numbers,
        correctedEverything: correctedEverything(input.char_stats),
        funboxDifficulties: funboxDifficulties(input.funbox),
        // The accuracy of each restarted test, which the live rules weigh its seconds by, is not stored: rather than
        // credit the seconds in full on a claim nothing can check, they earn nothing here.
        incompleteTests: [],
        incompleteTestSeconds: 0,
        streak: s.streak.length,
        // The latest result so far: an older result than it gets no daily bonus (its day is not after that one's).
        lastResultTimestamp: previous,
        currentTotalXp: s.account.xp + s.xp,
        now: ts,
      },
      xpConfig,
    ).xp;
    const gained = Number.isFinite(xp) && xp > 0 ? xp : 0;
    const pbAllowed = canSetPersonalBest({
      mode: input.mode,
      acc: input.acc,
      bailedOut: input.bailed_out,
      stopOnLetter: input.stop_on_letter,
      funboxesAllowPb: funboxesAllowPb(input.funbox),
    });
    const bucket = bucketOf(input);
    const figures: PersonalBestRow = {
      mode: input.mode,
      mode2: input.mode2,
      language: input.language,
      difficulty: input.difficulty,
      punctuation: input.punctuation,
      numbers: input.numbers,
      lazy_mode: input.lazy_mode,
      wpm: input.wpm,
      acc: input.acc,
      raw: input.raw_wpm,
      consistency: input.consistency,
      timestamp: ts,
    };
    const offer = (owner: string, heldResultId: string | null): boolean => {
      const key = `${owner}\u0001${bucket}`;
      if (!isNewPersonalBest(best.get(key), input.wpm)) return false;
      best.set(key, input.wpm);
      bests.set(key, { owner, uid: input.uid, row: figures, heldResultId });
      return true;
    };
    const owned = stored.tagsOf.get(input.uid) ?? new Set<string>();
    const tags = input.tags.filter((tag) => owned.has(tag));
    const isPb = pbAllowed && offer(input.uid, input.held ? input.id : null);
    if (pbAllowed) for (const tag of tags) offer(tag, null);

    s.completedTests += 1;
    s.startedTests += input.restart_count + 1;
    s.timeTyped += input.test_duration + input.incomplete_test_seconds - input.afk_duration;
    s.xp += gained;
    s.lastResultAt = Math.max(s.lastResultAt, ts);
    const day = Math.floor(ts / DAY_MS);
    const dayKey = `${input.uid}\u0001${day}`;
    const counted = activity.get(dayKey) ?? { uid: input.uid, day, tests: 0 };
    counted.tests += 1;
    activity.set(dayKey, counted);

    const { held, ...row } = input;
    rows.push({ ...row, name: row.name ?? account.name, tags, xp: gained, is_pb: isPb });
    if (held)
      reviews.push({
        resultId: input.id,
        uid: input.uid,
        hold: held,
        result: {
          mode: input.mode as HeldResultFacts['mode'],
          mode2: input.mode2,
          language: input.language,
          difficulty: input.difficulty,
          punctuation: input.punctuation,
          numbers: input.numbers,
          lazyMode: input.lazy_mode,
          funbox: input.funbox,
          bailedOut: input.bailed_out,
          stopOnLetter: input.stop_on_letter,
          wpm: input.wpm,
          rawWpm: input.raw_wpm,
          acc: input.acc,
          consistency: input.consistency,
          testDuration: input.test_duration,
          afkDuration: input.afk_duration,
          incompleteTestSeconds: input.incomplete_test_seconds,
          timestamp: ts,
          xp: gained,
          pbAllowed,
        },
      });
  }
  return {
    rows,
    bests: [...bests.values()],
    accounts: [...state.values()].map(({ account: _account, ...change }) => change),
    reviews,
    activity: [...activity.values()],
  };
}
