import { kogasa, mean, roundTo2, stdDev, wpmOf } from './stats';

/**
 * What every result body of the original client satisfies, by the model's account of how it is computed: exact
 * identities (wpm and rawWpm from the characters and the duration, the consistency figures from the series they
 * are computed from, one key duration per press and one spacing fewer, restarts counted from the incomplete tests)
 * and bounds that follow from the log (the key timeline adds up to the duration within the client's rounding, a
 * chart point per second, time away only in seconds without inserts). Checked on the captured fixtures and on every
 * generated body; a failure names the property.
 */

export interface BodyLike {
  wpm: number;
  rawWpm: number;
  acc: number;
  mode: string;
  mode2: string;
  testDuration: number;
  afkDuration: number;
  bailedOut: boolean;
  consistency: number;
  charStats?: readonly number[];
  charTotal?: number;
  wpmConsistency?: number;
  keyConsistency?: number;
  chartData?: { wpm: readonly number[]; burst: readonly number[]; err: readonly number[] } | 'toolong';
  keySpacing?: readonly number[] | 'toolong';
  keyDuration?: readonly number[] | 'toolong';
  keyOverlap?: number;
  lastKeyToEnd?: number;
  startToFirstKey?: number;
  restartCount?: number;
  incompleteTests?: readonly { acc: number; seconds: number }[];
  incompleteTestSeconds?: number;
  customText?: unknown;
  quoteLength?: number;
}

const hundredths = (n: number) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6;
const consistency = (values: readonly number[], zeroIsNone: boolean) => {
  const k = roundTo2(kogasa(stdDev(values) / mean(values)));
  return Number.isNaN(k) || (zeroIsNone && !k) ? 0 : k;
};
/** The client reports durations in hundredths of a second (custom tests unrounded): up to 5 ms off its end. */
const ROUNDING_MS = 5.01;

export function structuralViolations(body: BodyLike): string[] {
  const v: string[] = [];
  const { testDuration: seconds } = body;
  const stats = body.charStats;
  if (stats && body.charTotal !== undefined) {
    if (stats.length !== 4 || stats.some((n) => !Number.isInteger(n) || n < 0)) v.push('charStats: 4 counts');
    if (stats[0]! + stats[1]! + stats[2]! > body.charTotal) v.push('charStats[0..2] within charTotal');
    if (body.wpm !== roundTo2(wpmOf(stats[0]!, seconds))) v.push('wpm = charStats[0] over testDuration');
    if (body.rawWpm !== roundTo2(wpmOf(body.charTotal, seconds)))
      v.push('rawWpm = charTotal over testDuration');
  }
  if (body.acc < 0 || body.acc > 100 || !hundredths(body.acc)) v.push('acc: a percentage in hundredths');
  if (!Number.isInteger(body.afkDuration) || body.afkDuration < 0) v.push('afkDuration: whole seconds');
  if ((body.restartCount ?? 0) !== (body.incompleteTests?.length ?? 0))
    v.push('restartCount = incompleteTests');
  const incomplete = (body.incompleteTests ?? []).reduce((sum, t) => sum + t.seconds, 0);
  if ((body.incompleteTestSeconds ?? 0) !== roundTo2(incomplete)) v.push('incompleteTestSeconds = their sum');
  if ((body.lastKeyToEnd ?? 0) < 0 || (body.startToFirstKey ?? 0) < 0)
    v.push('key-to-end times not negative');
  if (body.mode === 'zen' && (body.lastKeyToEnd !== 0 || body.startToFirstKey !== 0))
    v.push('zen: no key-to-end times');
  if ((body.customText !== undefined) !== (body.mode === 'custom'))
    v.push('customText only for custom tests');
  if ((body.quoteLength !== undefined) !== (body.mode === 'quote')) v.push('quoteLength only for quotes');
  const tooLong = seconds > 122;
  for (const field of ['chartData', 'keySpacing', 'keyDuration'] as const) {
    if (body[field] !== undefined && (body[field] === 'toolong') !== tooLong)
      v.push(`${field}: "toolong" past 122 s`);
  }
  const chart = body.chartData;
  if (chart && chart !== 'toolong') {
    const points = chart.wpm.length;
    if (chart.burst.length !== points || chart.err.length !== points) v.push('chart: series of one length');
    if (Math.abs(points - seconds) >= 1.01) v.push('chart: a point per second');
    // Whole-second intervals (a last, partial one of an untimed test aside) insert whole characters.
    const whole = Math.min(points, Math.floor(seconds - 0.006));
    for (let i = 0; i < whole; i++) {
      if (chart.burst[i]! % 12 !== 0) v.push(`chart: burst[${i}] whole inserts`);
      if (chart.err[i]! * 12 > chart.burst[i]!) v.push(`chart: err[${i}] within its inserts`);
    }
    if (body.afkDuration > chart.burst.filter((b) => b === 0).length) v.push('afk seconds have no inserts');
    if (body.consistency !== consistency(chart.burst, true)) v.push('consistency from burst');
    if (body.wpmConsistency !== undefined && body.wpmConsistency !== consistency(chart.wpm, false)) {
      v.push('wpmConsistency from the chart');
    }
  }
  const spacing = body.keySpacing;
  const durations = body.keyDuration;
  if (Array.isArray(spacing) && Array.isArray(durations)) {
    if (spacing.length !== Math.max(0, durations.length - 1))
      v.push('one key duration per press, a spacing fewer');
    if (spacing.some((n) => n < 0) || durations.some((n) => n < 0)) v.push('key timings not negative');
    const k = consistency(spacing.length > 0 ? spacing.slice(0, -1) : spacing, true);
    if (body.keyConsistency !== undefined && body.keyConsistency !== k)
      v.push('keyConsistency from keySpacing');
    // The presses run from the start (or the first key) to the last key; the end follows lastKeyToEnd later. Zen and
    // abandoned tests end their duration at the last key, unless it came 7 s or more before the end.
    const untilLastKey = (body.startToFirstKey ?? 0) + spacing.reduce((a, b) => a + b, 0);
    const toEnd = body.lastKeyToEnd ?? 0;
    const trimmed = body.mode === 'zen' || (body.bailedOut && toEnd < 7000);
    const timeline = untilLastKey + (trimmed ? 0 : toEnd);
    if (spacing.length > 0 && Math.abs(timeline - seconds * 1000) > ROUNDING_MS) {
      v.push('key timeline adds up to the duration');
    }
  }
  if (body.keyOverlap !== undefined && (body.keyOverlap < 0 || !hundredths(body.keyOverlap))) {
    v.push('keyOverlap: ms in hundredths');
  }
  return v;
}
