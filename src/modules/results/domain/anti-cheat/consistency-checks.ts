import type { AntiCheatConfiguration } from '../../../../config/anti-cheat-configuration';
import { fig, type CheckedResult, type Finding } from './checked-result';
import type { ResultFigures } from './result-figures';

/**
 * Consistency checks (463 `Result data doesn't make sense`, spec results rule 1): a genuine client's measurements of
 * one test agree with one another up to its rounding; each check compares two of them within its configured
 * tolerance and returns the first contradiction it finds, with the figures it compared. Pure and O(n).
 */
export interface ConsistencyContext {
  result: Readonly<CheckedResult>;
  figures: ResultFigures;
  config: AntiCheatConfiguration;
  /** The language is typed through an input method or auto-indented: keys and inserts are not one per character. */
  composed: boolean;
}

type Check = (c: ConsistencyContext) => Finding | null;

const senseless = (check: string, figures: Finding['figures']): Finding => ({ check, status: 463, figures });

function tolerance(value: number, absolute: number, percent: number): number {
  return Math.max(absolute, (Math.abs(value) * percent) / 100);
}

/**
 * Characters the client may have inserted after the last chart point (at most half a second of an untimed test, a
 * few hundredths of a timed one): twice the raw speed over that time, plus one.
 */
export function unchartedAllowance(rawWpm: number, unchartedSeconds: number): number {
  return Math.ceil((rawWpm / 12) * unchartedSeconds * 2) + 1;
}

/**
 * "toolong" stands for arrays too long to send, which only a long test has: on a short test it contradicts the
 * result (the original's 464 `Missing key data` for key timings, 463 for the chart). A measurement that is simply
 * absent contradicts nothing: the checks that need it are skipped, and the result is held for review instead
 * (`missingMeasurements`, review-ceiling.ts), so leaving data out cannot put a result on a board unseen.
 */
export function measurementsCheck({ result, config }: ConsistencyContext): Finding | null {
  const { enabled, toolongMinSeconds } = config.measurements;
  if (!enabled || result.testDuration >= toolongMinSeconds) return null;
  for (const field of ['keySpacing', 'keyDuration'] as const) {
    if (result[field] === 'toolong') {
      return {
        check: 'measurements',
        status: 464,
        figures: { toolong: field, testDuration: result.testDuration },
      };
    }
  }
  if (result.chartData === 'toolong') {
    return senseless('measurements', { toolong: 'chartData', testDuration: result.testDuration });
  }
  return null;
}

/** wpm and rawWpm against the characters and the duration; the character counts against each other. */
export function speedCheck({ result, figures, config }: ConsistencyContext): Finding | null {
  const chars = figures.chars;
  if (!config.speed.enabled || !chars) return null;
  const { toleranceWpm, tolerancePercent } = config.speed;
  if (chars.correct + chars.incorrect + chars.extra > chars.total) {
    return senseless('speed', {
      charStats: chars.correct + chars.incorrect + chars.extra,
      charTotal: chars.total,
    });
  }
  const wpmTolerance = tolerance(chars.wpm, toleranceWpm, tolerancePercent);
  if (Math.abs(result.wpm - chars.wpm) > wpmTolerance) {
    return senseless('speed', {
      wpm: result.wpm,
      wpmFromChars: fig(chars.wpm),
      tolerance: fig(wpmTolerance),
    });
  }
  const rawTolerance = tolerance(chars.raw, toleranceWpm, tolerancePercent);
  if (Math.abs(result.rawWpm - chars.raw) > rawTolerance) {
    return senseless('speed', {
      rawWpm: result.rawWpm,
      rawFromChars: fig(chars.raw),
      tolerance: fig(rawTolerance),
    });
  }
  // Every word of a finished word test left at least one character somewhere in charStats.
  const words = result.mode === 'words' && !result.bailedOut ? parseInt(result.mode2, 10) : 0;
  if (words > 0 && chars.correct + chars.incorrect + chars.extra + chars.missed < words) {
    return senseless('speed', {
      words,
      characters: chars.correct + chars.incorrect + chars.extra + chars.missed,
    });
  }
  return null;
}

/** acc against the characters left wrong, and against the chart's inserts and errors. */
export function accuracyCheck({ result, figures, config, composed }: ConsistencyContext): Finding | null {
  const { chars, chart, keys } = figures;
  if (!config.accuracy.enabled || !chars) return null;
  const { toleranceErrors, tolerancePercent } = config.accuracy;
  const allowance = chart ? unchartedAllowance(result.rawWpm, chart.unchartedSeconds) : 0;

  // Characters still wrong at the end were wrong keypresses: acc cannot be higher than all presses allow.
  const wrong = chars.incorrect + chars.extra;
  if (wrong > 0) {
    const presses = Math.max(keys?.presses ?? 0, chart ? chart.inserts + allowance : 0, chars.total);
    const accMax = 100 * (1 - wrong / (presses + toleranceErrors));
    if (result.acc > accMax + tolerancePercent) {
      return senseless('accuracy', { acc: result.acc, wrongChars: wrong, accMax: fig(accMax) });
    }
  }

  if (!chart || composed || chart.inserts === 0) return null;
  // acc = right inserts / all inserts; the chart counts those of its seconds, the rest happened after its last point.
  const all = chart.inserts + allowance;
  const accMin = (100 * Math.max(0, chart.inserts - chart.errors - toleranceErrors)) / all;
  const accMax = (100 * Math.min(all, all - chart.errors + toleranceErrors)) / all;
  if (result.acc < accMin - tolerancePercent || result.acc > accMax + tolerancePercent) {
    return senseless('accuracy', {
      acc: result.acc,
      chartInserts: chart.inserts,
      chartErrors: chart.errors,
      accMin: fig(accMin),
      accMax: fig(accMax),
    });
  }
  return null;
}

/** The number of key timings against each other, the characters typed and the chart's inserts. */
export function keyCountCheck({ figures, config, composed }: ConsistencyContext): Finding | null {
  const { keys, chars, chart } = figures;
  if (!config.keyCount.enabled || !keys || !chars) return null;
  const { minKeysPerChar, maxKeysPerChar, toleranceKeys } = config.keyCount;
  if (Math.abs(keys.durations - keys.presses) > toleranceKeys) {
    return senseless('keyCount', { keyPresses: keys.presses, keyDurations: keys.durations });
  }
  const tooFew = !composed && keys.presses < minKeysPerChar * chars.total - toleranceKeys;
  if (tooFew || keys.presses > maxKeysPerChar * chars.total + toleranceKeys) {
    return senseless('keyCount', { keyPresses: keys.presses, charTotal: chars.total });
  }
  // Every character the chart counts was typed with a key press.
  if (chart && !composed && chart.inserts > keys.presses + toleranceKeys) {
    return senseless('keyCount', { keyPresses: keys.presses, chartInserts: chart.inserts });
  }
  return null;
}

/** The key timeline against the duration, and the time away against the pauses in it. */
export function timelineCheck({ result, figures, config }: ConsistencyContext): Finding | null {
  const { keys, timelineMs } = figures;
  if (!config.timeline.enabled || !keys || timelineMs === null) return null;
  const durationMs = result.testDuration * 1000;
  const allowed = tolerance(durationMs, config.timeline.toleranceMs, config.timeline.tolerancePercent);
  const lastKeyToEnd = result.lastKeyToEnd ?? 0;
  const untimed = result.mode === 'zen' || result.bailedOut;
  const deviation = timelineMs - durationMs;
  const fits =
    Math.abs(deviation) <= allowed ||
    // An abandoned test's duration ends at its last key (when within 7 s), its lastKeyToEnd is still reported.
    (result.bailedOut && Math.abs(deviation - lastKeyToEnd) <= allowed) ||
    // Zen and abandoned tests keep a trailing pause of 7 s or more in the duration but not in the timings; the
    // client counts its seconds as afk.
    (untimed && deviation < 0 && -deviation <= (result.afkDuration + 1) * 1000 + allowed);
  if (!fits) {
    return senseless('timeline', {
      timelineMs: fig(timelineMs),
      testDurationMs: fig(durationMs),
      toleranceMs: fig(allowed),
    });
  }
  // An afk second holds no key press: it fits inside a pause of the timeline.
  const pauses =
    keys.spacing.wholeSeconds +
    Math.floor((result.startToFirstKey ?? 0) / 1000) +
    Math.floor(lastKeyToEnd / 1000) +
    Math.floor(Math.max(0, -deviation) / 1000);
  if (result.afkDuration > pauses + 1) {
    return senseless('timeline', { afkDuration: result.afkDuration, pauseSeconds: pauses });
  }
  return null;
}

/** The chart series against the duration, the final speed, the characters, the time away and the figures. */
export function chartCheck({ result, figures, config, composed }: ConsistencyContext): Finding | null {
  const { chart, chars, keys } = figures;
  if (!config.chart.enabled || !chart) return null;
  const { pointTolerance, toleranceWpm, tolerancePercent, consistencyTolerance } = config.chart;
  if (!chart.lengthsMatch || Math.abs(chart.points - result.testDuration) > pointTolerance) {
    return senseless('chart', { points: chart.points, testDuration: result.testDuration });
  }
  if (chart.errorsOverInserts > 0) return senseless('chart', { errorsOverInserts: chart.errorsOverInserts });
  const allowance = unchartedAllowance(result.rawWpm, chart.unchartedSeconds);

  if (chars) {
    // The last point is the running wpm at the last boundary: the correct characters typed by then.
    const seconds = chart.chartedSeconds;
    const atLastPoint = (chart.lastWpm * seconds) / 12;
    const slack = ((0.5 + toleranceWpm) * seconds) / 12 + (tolerancePercent * chars.correct) / 100;
    if (atLastPoint > chars.correct + slack || atLastPoint < chars.correct - allowance - slack) {
      return senseless('chart', {
        lastChartWpm: chart.lastWpm,
        wpm: result.wpm,
        charsAtLastPoint: fig(atLastPoint),
        correctChars: chars.correct,
      });
    }
    // Every character typed was inserted in some second: the chart's seconds and what came after hold them all.
    if (!composed && chart.inserts + allowance + slack < chars.total) {
      return senseless('chart', {
        chartInserts: chart.inserts,
        charTotal: chars.total,
        rawWpm: result.rawWpm,
      });
    }
  }
  if (result.afkDuration > chart.idleSeconds + Math.ceil(chart.unchartedSeconds) + 1) {
    return senseless('chart', { afkDuration: result.afkDuration, idleSeconds: chart.idleSeconds });
  }

  const reported: [string, number | undefined, number | undefined][] = [
    ['consistency', result.consistency, chart.consistency],
    ['wpmConsistency', result.wpmConsistency, chart.wpmConsistency],
    ['keyConsistency', result.keyConsistency, keys?.keyConsistency],
  ];
  for (const [name, sent, computed] of reported) {
    if (sent !== undefined && computed !== undefined && Math.abs(sent - computed) > consistencyTolerance) {
      return senseless('chart', { [name]: sent, [`${name}FromSeries`]: computed });
    }
  }
  return null;
}

/** In the order they run: the first contradiction found is the answer. */
export const CONSISTENCY_CHECKS: readonly Check[] = [
  measurementsCheck,
  speedCheck,
  keyCountCheck,
  timelineCheck,
  chartCheck,
  accuracyCheck,
];

export function findInconsistency(context: ConsistencyContext): Finding | null {
  for (const check of CONSISTENCY_CHECKS) {
    const finding = check(context);
    if (finding) return finding;
  }
  return null;
}
