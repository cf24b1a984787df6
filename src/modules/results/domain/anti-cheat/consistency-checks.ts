import type { AntiCheatConfiguration } from '../../../../config/anti-cheat-configuration';
import { excessOf, fig, type CheckedResult, type Figures, type Finding } from './checked-result';
import type { ResultFigures } from './result-figures';

/**
 * Consistency checks (463 `Result data doesn't make sense`, spec results rule 1). Each one inverts a computation of the
 * original client (its test-event statistics, read from its public source: the per-word character counts, the
 * per-keypress accuracy, the per-second chart, the key timing arrays; docs/anti-cheat.md walks through them), so a
 * genuine result can only deviate by the client's rounding, by what happens after the chart's last point, and by the
 * rare cases each check names. A check returns its contradiction with how far past its tolerance it lies; the judge
 * holds a result within the check's `holdMargin` and refuses it beyond (checked-result.ts, `Finding`). Pure and O(n).
 */
export interface ConsistencyContext {
  result: Readonly<CheckedResult>;
  figures: ResultFigures;
  config: AntiCheatConfiguration;
  /** The language is typed through an input method or auto-indented: keys and inserts are not one per character. */
  composed: boolean;
}

type Check = (c: ConsistencyContext) => Finding | null;

const senseless = (check: string, excess: number, figures: Figures, holdOnly = false): Finding =>
  holdOnly ? { check, status: 463, figures, excess, holdOnly } : { check, status: 463, figures, excess };

/** Of one check's contradictions, the one that weighs most: what it refuses outranks what it only holds. */
function worst(...findings: (Finding | null)[]): Finding | null {
  let found: Finding | null = null;
  for (const finding of findings) {
    if (!finding) continue;
    const weight = finding.holdOnly ? 0 : finding.excess;
    if (!found || weight > (found.holdOnly ? 0 : found.excess)) found = finding;
  }
  return found;
}

function tolerance(value: number, absolute: number, percent: number): number {
  return Math.max(absolute, (Math.abs(value) * percent) / 100);
}

/**
 * The client's own notion of a timed test (its chart has whole seconds only, and the last word typed counts in part):
 * time mode, words or custom without a limit, custom limited by time.
 */
export function isTimedTest(result: Pick<CheckedResult, 'mode' | 'mode2' | 'customText'>): boolean {
  if (result.mode === 'time') return true;
  if (result.mode === 'words') return result.mode2 === '0';
  if (result.mode === 'custom') {
    const limit = result.customText?.limit;
    return limit !== undefined && (limit.mode === 'time' || limit.value === 0);
  }
  return false;
}

/**
 * Characters the client may have inserted after the last chart point (at most half a second of an untimed test, a
 * few hundredths of a timed one): twice the raw speed over that time, plus one.
 */
export function unchartedAllowance(rawWpm: number, unchartedSeconds: number): number {
  return Math.ceil((rawWpm / 12) * unchartedSeconds * 2) + 1;
}

/**
 * "toolong" stands for arrays too long to send: the client replaces the chart and both key timing arrays by it only
 * when the test lasted more than 122 s (its saveResult). On a shorter test it contradicts the result (the original's
 * 464 `Missing key data` for key timings, 463 for the chart). A measurement that is simply absent contradicts nothing:
 * the checks that need it are skipped, and the result is held for review instead (`missingMeasurements`,
 * review-ceiling.ts), so leaving data out cannot put a result on a board unseen.
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
        excess: Infinity,
      };
    }
  }
  if (result.chartData === 'toolong') {
    return senseless('measurements', Infinity, { toolong: 'chartData', testDuration: result.testDuration });
  }
  return null;
}

/**
 * wpm and rawWpm against the characters and the duration; the character counts against each other.
 * The client: per word, countChars(input with its committing space, target with its space) sorts every typed
 * position into exactly one of allCorrect, incorrect and extra (a space typed where the target has one, in a word that
 * is not correct, is extra); `correctWord` credits the positions of correct words (and of the last word's correct
 * prefix in timed and abandoned tests), so it never exceeds allCorrect. Then charStats = [correctWord, incorrect,
 * extra, missed], charTotal = allCorrect + incorrect + extra, wpm = round2(correctWord × 12 / testDuration),
 * rawWpm = round2(charTotal × 12 / testDuration), from the very duration it reports. A word of a word test holds at
 * least its committing space (a space on an empty word commits it), so a finished word test has a character per word.
 */
export function speedCheck({ result, figures, config }: ConsistencyContext): Finding | null {
  const chars = figures.chars;
  if (!config.speed.enabled || !chars) return null;
  const { toleranceWpm, tolerancePercent } = config.speed;
  const counted = chars.correct + chars.incorrect + chars.extra;
  const wpmTolerance = tolerance(chars.wpm, toleranceWpm, tolerancePercent);
  const wpmDeviation = Math.abs(result.wpm - chars.wpm);
  const rawTolerance = tolerance(chars.raw, toleranceWpm, tolerancePercent);
  const rawDeviation = Math.abs(result.rawWpm - chars.raw);
  const words = result.mode === 'words' && !result.bailedOut ? parseInt(result.mode2, 10) : 0;
  return worst(
    counted > chars.total
      ? senseless('speed', Infinity, { charStats: counted, charTotal: chars.total })
      : null,
    wpmDeviation > wpmTolerance
      ? senseless('speed', excessOf(wpmDeviation, wpmTolerance), {
          wpm: result.wpm,
          wpmFromChars: fig(chars.wpm),
          tolerance: fig(wpmTolerance),
        })
      : null,
    rawDeviation > rawTolerance
      ? senseless('speed', excessOf(rawDeviation, rawTolerance), {
          rawWpm: result.rawWpm,
          rawFromChars: fig(chars.raw),
          tolerance: fig(rawTolerance),
        })
      : null,
    words > 0 && counted + chars.missed < words
      ? senseless('speed', Infinity, { words, characters: counted + chars.missed })
      : null,
  );
}

/**
 * acc against the characters left wrong, and against the chart's inserts and errors.
 * The client: acc = round2(100 × correct inserts / all inserts), one insert per character typed (an input method's
 * composed text is split into one insert per character), each judged correct when it equals the target character at
 * its place (the target's committing space included). A character still wrong at the end was a wrong insert where it
 * stands, so `incorrect` counts wrong inserts; `extra` counts wrong inserts too (letters past the word's end, or typed
 * where its space belongs), except the space of a word left wrong: typed in its place, that space was a correct
 * insert. Such a word holds at least one incorrect letter, so those spaces number at most `incorrect`: the wrong
 * inserts are at least max(incorrect, extra), never their sum (one wrong letter left in a word is incorrect 1, extra 1).
 * The chart's err and burst count exactly the wrong and all inserts of each charted second.
 */
export function accuracyCheck({ result, figures, config, composed }: ConsistencyContext): Finding | null {
  const { chars, chart, keys } = figures;
  if (!config.accuracy.enabled || !chars) return null;
  const { toleranceErrors, tolerancePercent } = config.accuracy;
  const allowance = chart ? unchartedAllowance(result.rawWpm, chart.unchartedSeconds) : 0;

  let fromChars: Finding | null = null;
  // An input method's language counts characters otherwise: Korean words are compared as jamo, so one wrong syllable
  // is up to three `incorrect` characters for one wrong insert. The bound holds only for one insert per character.
  const wrong = composed ? 0 : Math.max(chars.incorrect, chars.extra);
  if (wrong > 0) {
    // The most inserts the test can have held: the chart's count is exact but for its uncharted end; without a chart,
    // the key presses and the characters left are the best figure (such a result is held for review anyway).
    const inserts = Math.max(keys?.presses ?? 0, chart ? chart.inserts + allowance : 0, chars.total);
    const accMax = 100 * (1 - wrong / (inserts + toleranceErrors));
    if (result.acc > accMax + tolerancePercent) {
      fromChars = senseless('accuracy', excessOf(result.acc - accMax, tolerancePercent), {
        acc: result.acc,
        wrongInserts: wrong,
        accMax: fig(accMax),
      });
    }
  }

  if (!chart || composed || chart.inserts === 0) return fromChars;
  // acc = right inserts / all inserts; the chart counts those of its seconds, the rest happened after its last point.
  const all = chart.inserts + allowance;
  const accMin = (100 * Math.max(0, chart.inserts - chart.errors - toleranceErrors)) / all;
  const accMax = (100 * Math.min(all, all - chart.errors + toleranceErrors)) / all;
  const deviation = Math.max(accMin - result.acc, result.acc - accMax);
  return worst(
    fromChars,
    deviation > tolerancePercent
      ? senseless('accuracy', excessOf(deviation, tolerancePercent), {
          acc: result.acc,
          chartInserts: chart.inserts,
          chartErrors: chart.errors,
          accMin: fig(accMin),
          accMax: fig(accMax),
        })
      : null,
  );
}

/**
 * The number of key timings against each other, the characters typed and the chart's inserts.
 * The client logs every key press that is not an auto-repeat (letters, space, backspace, modifiers): keySpacing holds
 * the gaps between consecutive presses, keyDuration one hold per press, so there is one spacing fewer than durations.
 * Presses and characters are only loosely tied: a phone keyboard can insert a whole word for one key event, and
 * retyping can take many presses per character left; those comparisons hold a result, never refuse it.
 */
export function keyCountCheck({ figures, config, composed }: ConsistencyContext): Finding | null {
  const { keys, chars, chart } = figures;
  if (!config.keyCount.enabled || !keys || !chars) return null;
  const { minKeysPerChar, maxKeysPerChar, toleranceKeys } = config.keyCount;
  const countDeviation = Math.abs(keys.durations - keys.presses);
  const tooFew = !composed && keys.presses < minKeysPerChar * chars.total - toleranceKeys;
  const tooMany = keys.presses > maxKeysPerChar * chars.total + toleranceKeys;
  return worst(
    countDeviation > toleranceKeys
      ? senseless('keyCount', excessOf(countDeviation, toleranceKeys), {
          keyPresses: keys.presses,
          keyDurations: keys.durations,
        })
      : null,
    tooFew || tooMany
      ? senseless('keyCount', 1, { keyPresses: keys.presses, charTotal: chars.total }, true)
      : null,
    chart && !composed && chart.inserts > keys.presses + toleranceKeys
      ? senseless('keyCount', 1, { keyPresses: keys.presses, chartInserts: chart.inserts }, true)
      : null,
  );
}

/**
 * The key timeline against the duration, and the time away against the pauses in it.
 * The client: startToFirstKey = first press − start (0 when the press came first, as it starts the test, and in zen),
 * the spacings run from that first press (clamped to 0) to the last, lastKeyToEnd = end − last press (0 in zen). An
 * abandoned or zen test's duration ends at its last press when that came less than 7 s before the end (an abandoned
 * test still reports lastKeyToEnd); a longer trailing pause stays in the duration and its seconds count as afk.
 * afkDuration counts the chart's seconds with no key press and no input: each lies inside a gap between presses, before
 * the first or after the last, so it fits in the whole seconds of those gaps.
 */
export function timelineCheck({ result, figures, config }: ConsistencyContext): Finding | null {
  const { keys, timelineMs } = figures;
  if (!config.timeline.enabled || !keys || timelineMs === null) return null;
  const durationMs = result.testDuration * 1000;
  const allowed = tolerance(durationMs, config.timeline.toleranceMs, config.timeline.tolerancePercent);
  const lastKeyToEnd = result.lastKeyToEnd ?? 0;
  const untimed = result.mode === 'zen' || result.bailedOut;
  const deviation = timelineMs - durationMs;
  const misses = [Math.abs(deviation)];
  // An abandoned test's duration ends at its last key (when within 7 s), its lastKeyToEnd is still reported.
  if (result.bailedOut) misses.push(Math.abs(deviation - lastKeyToEnd));
  // Zen and abandoned tests keep a trailing pause of 7 s or more in the duration but not in the timings; the
  // client counts its seconds as afk.
  if (untimed && deviation < 0) misses.push(Math.max(0, -deviation - (result.afkDuration + 1) * 1000));
  const miss = Math.min(...misses);
  const pauses =
    keys.spacing.wholeSeconds +
    Math.floor((result.startToFirstKey ?? 0) / 1000) +
    Math.floor(lastKeyToEnd / 1000) +
    Math.floor(Math.max(0, -deviation) / 1000);
  return worst(
    miss > allowed
      ? senseless('timeline', excessOf(miss, allowed), {
          timelineMs: fig(timelineMs),
          testDurationMs: fig(durationMs),
          toleranceMs: fig(allowed),
        })
      : null,
    result.afkDuration > pauses + 1
      ? senseless('timeline', excessOf(result.afkDuration - pauses, 1), {
          afkDuration: result.afkDuration,
          pauseSeconds: pauses,
        })
      : null,
  );
}

/**
 * The chart series against the duration, the final speed, the characters, the time away and the figures.
 * The client: one point per whole second of the test (a timed test's end falls a few hundredths past its last
 * point; an untimed test gets a fractional last point when half a second or more is left, so at most half a second
 * is uncharted); the three series have one length. burst = inserts of that second × 12 / its length, err = the wrong
 * ones (never more than its inserts), wpm = correct characters by then × 12 / seconds elapsed, the word being typed
 * counted in part. consistency = kogasa(cv of burst), wpmConsistency = kogasa(cv of wpm), keyConsistency =
 * kogasa(cv of keySpacing without its last value), all rounded to hundredths (result-figures.ts). afkDuration counts
 * seconds with no key press or input, so each is a second with no insert.
 */
export function chartCheck({ result, figures, config, composed }: ConsistencyContext): Finding | null {
  const { chart, chars, keys } = figures;
  if (!config.chart.enabled || !chart) return null;
  const { pointTolerance, consistencyTolerance } = config.chart;
  if (!chart.lengthsMatch) {
    return senseless('chart', Infinity, { points: chart.points, testDuration: result.testDuration });
  }
  const pointDeviation = Math.abs(chart.points - result.testDuration);
  const idle = chart.idleSeconds + Math.ceil(chart.unchartedSeconds);
  const findings: (Finding | null)[] = [
    pointDeviation > pointTolerance
      ? senseless('chart', excessOf(pointDeviation, pointTolerance), {
          points: chart.points,
          testDuration: result.testDuration,
        })
      : null,
    chart.errorsOverInserts > 0
      ? senseless('chart', Infinity, { errorsOverInserts: chart.errorsOverInserts })
      : null,
    chars && chartAgainstCharacters({ result, figures, config, composed }, chars, chart),
    result.afkDuration > idle + 1
      ? senseless('chart', excessOf(result.afkDuration - idle, 1), {
          afkDuration: result.afkDuration,
          idleSeconds: chart.idleSeconds,
        })
      : null,
  ];
  const reported: [string, number | undefined, number | undefined][] = [
    ['consistency', result.consistency, chart.consistency],
    ['wpmConsistency', result.wpmConsistency, chart.wpmConsistency],
    ['keyConsistency', result.keyConsistency, keys?.keyConsistency],
  ];
  for (const [name, sent, computed] of reported) {
    if (sent === undefined || computed === undefined) continue;
    const deviation = Math.abs(sent - computed);
    if (deviation > consistencyTolerance) {
      findings.push(
        senseless('chart', excessOf(deviation, consistencyTolerance), {
          [name]: sent,
          [`${name}FromSeries`]: computed,
        }),
      );
    }
  }
  return worst(...findings);
}

/**
 * The chart's last point (correct characters by then) against the final correct characters, and its inserts against
 * every character typed. The chart credits the word being typed in part; the final count credits only correct words
 * (and, in a timed test, the last word's correct prefix): one wrong key after the last point takes a whole word's
 * credit away, in any test, so the final count may fall short of the last point by up to a word
 * (`longestWordChars`). The other way, an untimed test keeps up to half a second after its last point, in which a word
 * can also be fixed, finished or inserted whole (a phone keyboard); a timed test's few hundredths hold only a key or
 * two. A custom text's words have no length bound, so there these comparisons only hold.
 */
function chartAgainstCharacters(
  { result, config, composed }: ConsistencyContext,
  chars: NonNullable<ResultFigures['chars']>,
  chart: NonNullable<ResultFigures['chart']>,
): Finding | null {
  const { toleranceWpm, tolerancePercent } = config.chart;
  const allowance = unchartedAllowance(result.rawWpm, chart.unchartedSeconds);
  const word = config.chart.longestWordChars;
  const untimed = !isTimedTest(result);
  const unbounded = result.mode === 'custom' && untimed;
  const seconds = chart.chartedSeconds;
  const atLastPoint = (chart.lastWpm * seconds) / 12;
  const slack = ((0.5 + toleranceWpm) * seconds) / 12 + (tolerancePercent * chars.correct) / 100;
  // Past the allowances, in characters; each compared with the slack, its tolerance.
  const above = atLastPoint - (chars.correct + word);
  const below = chars.correct - allowance - (untimed ? word : 0) - atLastPoint;
  // Every character typed was inserted in some second: the chart's seconds and what came after hold them all.
  const missing = chars.total - (chart.inserts + allowance + (untimed ? word : 0));
  return worst(
    above > slack || below > slack
      ? senseless(
          'chart',
          excessOf(Math.max(above, below), slack),
          {
            lastChartWpm: chart.lastWpm,
            wpm: result.wpm,
            charsAtLastPoint: fig(atLastPoint),
            correctChars: chars.correct,
          },
          unbounded,
        )
      : null,
    !composed && missing > slack
      ? senseless(
          'chart',
          excessOf(missing, slack),
          { chartInserts: chart.inserts, charTotal: chars.total, rawWpm: result.rawWpm },
          unbounded,
        )
      : null,
  );
}

/** In the order they run (and are reported). */
export const CONSISTENCY_CHECKS: readonly Check[] = [
  measurementsCheck,
  speedCheck,
  keyCountCheck,
  timelineCheck,
  chartCheck,
  accuracyCheck,
];

/** Every check's contradiction (at most one each), in the order the checks run. */
export function findInconsistencies(context: ConsistencyContext): Finding[] {
  const findings: Finding[] = [];
  for (const check of CONSISTENCY_CHECKS) {
    const finding = check(context);
    if (finding) findings.push(finding);
  }
  return findings;
}
