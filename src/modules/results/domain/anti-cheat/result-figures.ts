import type { CheckedResult } from './checked-result';
import { timingSums, type TimingSums } from './timing-profile';

/**
 * What a result's measurements say about one another, computed the way the original client computes them (facts
 * read from its public source, frontend/src/ts/test/events/stats.ts and test-logic.ts):
 * - wpm = correct-word characters (charStats[0], spaces included) × 12 / seconds; rawWpm = charTotal × 12 / seconds;
 *   both from the same duration the client reports, rounded to hundredths.
 * - keySpacing holds the time between consecutive key presses (one fewer than the presses), keyDuration one hold time
 *   per press; startToFirstKey + Σ keySpacing + lastKeyToEnd is the test's duration (zen reports both ends as 0).
 * - chartData has one point per second (plus a fractional last one for untimed tests with half a second or more
 *   left): `wpm` the running wpm at that second, `burst` the keypresses (inserted characters) of that second × 12,
 *   `err` the wrong ones. `acc` = right inserts / all inserts. `afkDuration` = seconds with no key or input at all.
 * - consistency = kogasa(cv of burst), wpmConsistency = kogasa(cv of the chart's wpm), keyConsistency = kogasa(cv of
 *   keySpacing without its last value), kogasa(c) = 100 (1 − tanh(c + c³/3 + c⁵/5)), rounded to hundredths.
 */
export interface ChartFigures {
  points: number;
  lengthsMatch: boolean;
  /** Seconds from the start to the last chart boundary, and after it. */
  chartedSeconds: number;
  unchartedSeconds: number;
  /** Characters inserted in the charted seconds (burst × interval / 12), and the wrong ones (err). */
  inserts: number;
  errors: number;
  /** The largest excess of one second's errors over its inserts (never above 0 from the client). */
  errorsOverInserts: number;
  /** Seconds whose burst is 0 (nothing inserted): afk seconds are among them. */
  idleSeconds: number;
  lastWpm: number;
  consistency: number;
  wpmConsistency: number;
}

export interface ResultFigures {
  seconds: number;
  chars: {
    correct: number;
    incorrect: number;
    extra: number;
    missed: number;
    total: number;
    wpm: number;
    raw: number;
  } | null;
  keys: {
    presses: number;
    durations: number;
    spacing: TimingSums;
    keyConsistency: number;
  } | null;
  /** startToFirstKey + Σ keySpacing + lastKeyToEnd, ms. */
  timelineMs: number | null;
  chart: ChartFigures | null;
}

/** The client's rounding to hundredths. */
export function roundTo2(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100;
}

/** The client's consistency figure of a series (0 when it has none, as the client reports NaN). */
export function kogasa(values: readonly number[], skipLast = false): number {
  const n = values.length - (skipLast && values.length > 0 ? 1 : 0);
  if (n <= 0) return 0;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i] as number;
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += ((values[i] as number) - mean) ** 2;
  const cv = Math.sqrt(squares / n) / mean;
  const k = roundTo2(100 * (1 - Math.tanh(cv + cv ** 3 / 3 + cv ** 5 / 5)));
  return Number.isFinite(k) ? k : 0;
}

function chartFigures(chart: NonNullable<Exclude<CheckedResult['chartData'], 'toolong'>>, seconds: number) {
  const points = chart.wpm.length;
  const full = Math.floor(seconds + 1e-9);
  // A fractional last point (untimed tests): its interval is what is left after the whole seconds.
  const tail = points === full + 1 && seconds - full > 0 ? seconds - full : 0;
  const chartedSeconds = tail > 0 ? seconds : points;
  let inserts = 0;
  let errors = 0;
  let errorsOverInserts = -Infinity;
  let idleSeconds = 0;
  const n = Math.min(points, chart.burst.length, chart.err.length);
  for (let i = 0; i < n; i++) {
    const interval = tail > 0 && i === points - 1 ? tail : 1;
    const burst = chart.burst[i] as number;
    const count = Math.round((burst * interval) / 12);
    const err = chart.err[i] as number;
    inserts += count;
    errors += err;
    if (err - count > errorsOverInserts) errorsOverInserts = err - count;
    if (burst === 0) idleSeconds++;
  }
  return {
    points,
    lengthsMatch: chart.burst.length === points && chart.err.length === points,
    chartedSeconds,
    unchartedSeconds: Math.max(0, seconds - chartedSeconds),
    inserts,
    errors,
    errorsOverInserts: n === 0 ? 0 : errorsOverInserts,
    idleSeconds,
    lastWpm: points === 0 ? 0 : (chart.wpm[points - 1] as number),
    consistency: kogasa(chart.burst),
    wpmConsistency: kogasa(chart.wpm),
  };
}

export function resultFigures(result: CheckedResult): ResultFigures {
  const seconds = result.testDuration;
  const stats = result.charStats;
  const chars =
    stats && stats.length === 4 && result.charTotal !== undefined
      ? {
          correct: stats[0] as number,
          incorrect: stats[1] as number,
          extra: stats[2] as number,
          missed: stats[3] as number,
          total: result.charTotal,
          wpm: ((stats[0] as number) * 12) / seconds,
          raw: (result.charTotal * 12) / seconds,
        }
      : null;

  const spacing = Array.isArray(result.keySpacing) ? result.keySpacing : null;
  const durations = Array.isArray(result.keyDuration) ? result.keyDuration : null;
  const keys =
    spacing && durations
      ? {
          // One spacing fewer than presses; a test with one press has no spacing at all.
          presses: spacing.length > 0 ? spacing.length + 1 : durations.length,
          durations: durations.length,
          spacing: timingSums(spacing),
          keyConsistency: kogasa(spacing, true),
        }
      : null;
  const timelineMs = keys
    ? (result.startToFirstKey ?? 0) + keys.spacing.sum + (result.lastKeyToEnd ?? 0)
    : null;

  const chart =
    result.chartData && result.chartData !== 'toolong' ? chartFigures(result.chartData, seconds) : null;
  return { seconds, chars, keys, timelineMs, chart };
}
