import type { CustomLimitMode, EventLog } from './event-log';
import { languageWithoutSize } from './counting';
import {
  accuracy,
  afkSeconds,
  burstHistory,
  charCounts,
  dateDurationMs,
  errorHistory,
  insertsPerInterval,
  keyDurations,
  keyOverlapMs,
  keySpacing,
  kogasa,
  lastKeyToEndMs,
  mean,
  roundTo2,
  startToFirstKeyMs,
  stdDev,
  testDurationMs,
  wpmHistory,
  wpmOf,
} from './stats';

/**
 * The result body the original client builds from a test's event log (its `buildCompletedEvent`, test-logic.ts),
 * the checks of its `finish` that decide whether it is sent at all, and what its `saveResult` sends (arrays of tests
 * over 122 s replaced by "toolong"). Every field, in the client's order; `hash` and `uid` are the caller's.
 */

export interface IncompleteTest {
  acc: number;
  seconds: number;
}

export interface CustomTextSettings {
  textLen: number;
  mode: 'repeat' | 'random' | 'shuffle';
  pipeDelimiter: boolean;
  limit: { mode: CustomLimitMode; value: number };
}

/** The settings of a test the result reports besides its log. */
export interface ResultSettings {
  language: string;
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
  blindMode: boolean;
  stopOnLetter: boolean;
  difficulty: 'normal' | 'expert' | 'master';
  funbox: string[];
  tags: string[];
  quote?: { id: number; group: number };
  customText?: CustomTextSettings;
  /** The tests restarted before this one (since the last saved result). */
  incompleteTests: IncompleteTest[];
  timestamp: number;
}

export interface ChartData {
  wpm: number[];
  burst: number[];
  err: number[];
}

export interface ClientResult {
  wpm: number;
  rawWpm: number;
  charStats: [number, number, number, number];
  charTotal: number;
  acc: number;
  language: string;
  testDuration: number;
  lastKeyToEnd: number;
  startToFirstKey: number;
  afkDuration: number;
  quoteLength?: number;
  customText?: CustomTextSettings;
  tags: string[];
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
  timestamp: number;
  mode: string;
  mode2: string;
  bailedOut: boolean;
  funbox: string[];
  difficulty: string;
  blindMode: boolean;
  stopOnLetter: boolean;
  restartCount: number;
  incompleteTests: IncompleteTest[];
  incompleteTestSeconds: number;
  consistency: number;
  wpmConsistency: number;
  keyConsistency: number;
  chartData: ChartData | 'toolong';
  keySpacing: number[] | 'toolong';
  keyDuration: number[] | 'toolong';
  keyOverlap: number;
}

/** The client's consistency figure of a series: 0 when it has none (NaN). */
function consistencyOf(values: readonly number[], zeroIsNone: boolean): number {
  const k = roundTo2(kogasa(stdDev(values) / mean(values)));
  return Number.isNaN(k) || (zeroIsNone && !k) ? 0 : k;
}

export function completedEvent(log: EventLog, settings: ResultSettings): ClientResult {
  const { context } = log;
  const chars = charCounts(log);
  const seconds = testDurationMs(log) / 1000;
  const burst = burstHistory(log);
  const spacing = keySpacing(log);
  const wpm = wpmHistory(log);
  const incompleteSeconds = settings.incompleteTests.reduce((sum, t) => sum + t.seconds, 0);
  const result: ClientResult = {
    wpm: roundTo2(wpmOf(chars.correctWord, seconds)),
    rawWpm: roundTo2(wpmOf(chars.allCorrect + chars.incorrect + chars.extra, seconds)),
    charStats: [chars.correctWord, chars.incorrect, chars.extra, chars.missed],
    charTotal: chars.allCorrect + chars.incorrect + chars.extra,
    acc: roundTo2(accuracy(log).percentage),
    language: context.mode === 'quote' ? languageWithoutSize(settings.language) : settings.language,
    testDuration: seconds,
    lastKeyToEnd: lastKeyToEndMs(log),
    startToFirstKey: startToFirstKeyMs(log),
    afkDuration: afkSeconds(log),
    quoteLength: settings.quote?.group ?? -1,
    customText: settings.customText,
    tags: [...settings.tags],
    punctuation: settings.punctuation,
    numbers: settings.numbers,
    lazyMode: settings.lazyMode,
    timestamp: settings.timestamp,
    mode: context.mode,
    mode2: context.mode2,
    bailedOut: context.bailedOut,
    funbox: [...settings.funbox],
    difficulty: settings.difficulty,
    blindMode: settings.blindMode,
    stopOnLetter: settings.stopOnLetter,
    restartCount: settings.incompleteTests.length,
    incompleteTests: settings.incompleteTests.map((t) => ({ ...t })),
    incompleteTestSeconds: incompleteSeconds < 0 ? 0 : roundTo2(incompleteSeconds),
    consistency: consistencyOf(burst, true),
    wpmConsistency: consistencyOf(wpm, false),
    keyConsistency: consistencyOf(spacing.length > 0 ? spacing.slice(0, -1) : spacing, true),
    chartData: { wpm, burst, err: errorHistory(log) },
    keySpacing: spacing,
    keyDuration: keyDurations(log),
    keyOverlap: keyOverlapMs(log),
  };
  if (result.mode !== 'custom') delete result.customText;
  if (result.mode !== 'quote') delete result.quoteLength;
  return result;
}

function hasNaNOrUndefined(value: unknown): boolean {
  // NaN is the only value unequal to itself (Number.isNaN is a slow global lookup in jest's vm context).
  if (typeof value === 'number') return value !== value;
  if (value === undefined) return true;
  if (typeof value === 'object' && value !== null) {
    for (const key in value) if (hasNaNOrUndefined((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/** Why the client's `finish` would not send the result (null: it sends it). */
export function clientRefusal(
  log: EventLog,
  result: ClientResult,
  facts: { failed: boolean; lbOptOut: boolean },
): string | null {
  if (hasNaNOrUndefined(result)) return 'undefined or NaN';
  const { mode, testDuration: duration, bailedOut } = result;
  const mode2 = parseInt(result.mode2, 10);
  const dateSeconds = dateDurationMs(log) / 1000;
  if (mode === 'time' && !bailedOut && Math.abs(duration - dateSeconds) > 0.1 && duration <= 120) {
    return 'inconsistent duration';
  }
  if (facts.failed) return 'failed';
  const limit = result.customText?.limit;
  if (
    duration < 1 ||
    (mode === 'time' && mode2 < 15 && mode2 > 0) ||
    (mode === 'time' && mode2 === 0 && duration < 15) ||
    (mode === 'words' && mode2 < 10 && mode2 > 0) ||
    (mode === 'words' && mode2 === 0 && duration < 15) ||
    (mode === 'custom' && (limit?.mode === 'word' || limit?.mode === 'section') && limit.value < 10) ||
    (mode === 'custom' && limit?.mode === 'time' && limit.value < 15) ||
    (mode === 'zen' && duration < 15)
  ) {
    return 'too short';
  }
  if (
    !bailedOut &&
    insertsPerInterval(log)
      .slice(-5)
      .every((n) => n === 0)
  )
    return 'afk';
  const wordsTen = mode === 'words' && result.mode2 === '10';
  const tooFast = (v: number) =>
    v < 0 || (v > 350 && mode !== 'words' && result.mode2 !== '10') || (v > 420 && wordsTen);
  if (tooFast(result.wpm)) return 'wpm';
  if (tooFast(result.rawWpm)) return 'raw';
  const minAcc = facts.lbOptOut ? 50 : 75;
  if (result.acc < minAcc || result.acc > 100) return 'accuracy';
  return null;
}

/** The body `saveResult` sends: the chart and key timings of a test over 122 s as "toolong". */
export function sentResult(result: ClientResult): ClientResult {
  const sent = structuredClone(result);
  if (sent.testDuration > 122) {
    sent.chartData = 'toolong';
    sent.keySpacing = 'toolong';
    sent.keyDuration = 'toolong';
  }
  return sent;
}
