import { isValidUid } from '../../../../common/auth/uid';
import { keyStats } from '../../../results/domain/key-stats';
import { MODES } from '../../../results/dto/completed-result.dto';
import type { ResultRow } from '../import-records';
import { resultProblem } from '../live-rules';
import { accept, Notes, refuse, type Mapped } from '../mapped';
import { language, mode2For } from './personal-bests';
import { entityId } from './user-parts';
import { bool, idText, int, isPlainObject, millis, num, text } from './values';

const MAX_CHART_POINTS = 122;
const INT4_MAX = 2_147_483_647;

const numbers = (value: unknown) =>
  Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0);

/**
 * `funbox` was `"none"` or `"a#b"` text before it became a list. The names are judged by the live rules
 * (live-rules.ts): the live list, or a funbox the original has since retired (kept as the label it is).
 */
export function funboxList(value: unknown): string[] | undefined {
  if (value === undefined || value === null || value === 'none' || value === '') return [];
  const names = typeof value === 'string' ? value.split('#') : Array.isArray(value) ? value : undefined;
  if (names === undefined || !names.every((n) => typeof n === 'string')) return undefined;
  return [...new Set(names.filter((n) => n !== 'none'))];
}

/**
 * `chartData`: `{ wpm, burst, err }`, `"toolong"`, or the old `{ wpm, raw, err }` (raw is what became burst). A chart
 * longer than our 122 points is stored as `"toolong"`, as the client sends long tests.
 */
function chart(value: unknown, notes: Notes): unknown {
  if (value === undefined || value === null) return null;
  if (value === 'toolong') return 'toolong';
  if (!isPlainObject(value)) {
    notes.leftOut('chartData', 'not a chart', value);
    return null;
  }
  const burst = value.burst ?? value.raw;
  if (!numbers(value.wpm) || !numbers(burst) || !numbers(value.err)) {
    notes.leftOut('chartData', 'not a chart of non-negative numbers', value);
    return null;
  }
  const series = {
    wpm: value.wpm as number[],
    burst: (burst as number[]).map(Math.round),
    err: value.err as number[],
  };
  if (Object.values(series).some((s) => s.length > MAX_CHART_POINTS)) return 'toolong';
  return series;
}

/** Key statistics as stored, or computed from the raw `keySpacing`/`keyDuration` timings older results kept. */
function stats(value: unknown, raw: unknown): unknown {
  if (isPlainObject(value)) {
    const average = num(value.average);
    const sd = num(value.sd);
    if (average !== undefined && sd !== undefined && average >= 0 && sd >= 0) return { average, sd };
  }
  return numbers(raw) ? keyStats(raw as number[]) : null;
}

/** `charStats` `[correct, incorrect, extra, missed]`, or the oldest results' `correctChars`/`incorrectChars`. */
function charStats(doc: Record<string, unknown>): number[] | null {
  const counts = Array.isArray(doc.charStats)
    ? doc.charStats.map((v) => int(v))
    : doc.correctChars !== undefined || doc.incorrectChars !== undefined
      ? [int(doc.correctChars), int(doc.incorrectChars), 0, 0]
      : null;
  if (counts === null || counts.length === 0) return null;
  const padded = [...counts, 0, 0, 0, 0].slice(0, 4);
  return padded.every((c) => c !== undefined && c <= INT4_MAX) ? (padded as number[]) : null;
}

/** Fields of a result document that carry over nowhere (counted in the summary). */
export const RESULT_FIELDS_LEFT_BEHIND = new Set([
  'hash',
  'customText',
  'allChars',
  'theme',
  'keySpacing',
  'keyDuration',
  'correctChars',
  'incorrectChars',
  'challenge',
  'keyOverlap',
  'lastKeyToEnd',
  'startToFirstKey',
  'wpmConsistency',
  'charTotal',
  'incompleteTests',
  'ir',
  'stopOnLetter',
]);

/**
 * One document of the original's `results` collection: its old shapes read into our row, then judged by the live
 * rules (live-rules.ts), whose message a refusal carries.
 */
export function mapResult(doc: Record<string, unknown>): Mapped<ResultRow> {
  const id = entityId(doc._id);
  if (id === undefined) return refuse('no usable _id');
  const uid = text(doc.uid);
  if (uid === undefined || !isValidUid(uid)) return refuse('no valid uid');
  const mode = text(doc.mode);
  if (mode === undefined || !MODES.includes(mode as (typeof MODES)[number]))
    return refuse(`unknown mode ${String(doc.mode)}`);
  const mode2 = mode2For(mode, doc.mode2);
  if (mode2 === undefined) return refuse(`mode2 ${String(doc.mode2)} does not fit mode ${mode}`);
  const timestamp = millis(doc.timestamp);
  if (timestamp === undefined) return refuse('no timestamp');
  const wpm = num(doc.wpm);
  if (wpm === undefined) return refuse(`wpm ${String(doc.wpm)} is not a number`);
  const acc = num(doc.acc);
  if (acc === undefined) return refuse(`accuracy ${String(doc.acc)} is not a number`);
  const rawWpm = num(doc.rawWpm ?? doc.raw);
  const consistency = num(doc.consistency);
  const keyConsistency = num(doc.keyConsistency);
  const funbox = funboxList(doc.funbox);
  if (funbox === undefined) return refuse(`funbox ${JSON.stringify(doc.funbox)} is not a list of names`);
  // Tests of the oldest versions kept no duration: a timed test lasted its mode2 seconds.
  const duration = num(doc.testDuration) ?? (mode === 'time' ? Number(mode2) : undefined);
  if (duration === undefined) return refuse('no test duration');
  const quoteLength = int(doc.quoteLength, -1);
  const tags = Array.isArray(doc.tags) ? doc.tags.map((t) => idText(t)) : [];
  if (!tags.every((t): t is string => t !== undefined)) return refuse('tags are not ids');

  const notes = new Notes();
  const row: ResultRow = {
    id,
    uid,
    timestamp,
    name: text(doc.name) ?? null,
    wpm,
    raw_wpm: rawWpm ?? wpm,
    acc,
    consistency: consistency ?? 0,
    key_consistency: keyConsistency ?? null,
    char_stats: charStats(doc),
    mode,
    mode2,
    quote_length:
      mode === 'quote' && quoteLength !== undefined && quoteLength >= 0 && quoteLength <= 3
        ? quoteLength
        : null,
    // Old results name no language (English then), or one the original renamed since.
    language: doc.language === undefined ? 'english' : (language(doc.language) ?? String(doc.language)),
    difficulty: doc.difficulty === undefined ? 'normal' : String(doc.difficulty),
    punctuation: bool(doc.punctuation) ?? false,
    numbers: bool(doc.numbers) ?? false,
    lazy_mode: bool(doc.lazyMode) ?? false,
    blind_mode: bool(doc.blindMode) ?? false,
    bailed_out: bool(doc.bailedOut) ?? false,
    funbox,
    tags: [...new Set(tags)],
    test_duration: duration,
    afk_duration: Math.min(duration, Math.max(0, num(doc.afkDuration) ?? 0)),
    incomplete_test_seconds: Math.max(0, num(doc.incompleteTestSeconds) ?? 0),
    restart_count: Math.min(INT4_MAX, int(doc.restartCount) ?? 0),
    is_pb: bool(doc.isPb) ?? false,
    chart_data: chart(doc.chartData, notes),
    key_spacing_stats: stats(doc.keySpacingStats, doc.keySpacing),
    key_duration_stats: stats(doc.keyDurationStats, doc.keyDuration),
    // The original keeps neither per result; they only feed the weekly XP and daily boards of their period.
    xp: 0,
    stop_on_letter: false,
  };
  const problem = resultProblem(row);
  return problem === null ? accept(row, notes.list) : refuse(problem);
}
