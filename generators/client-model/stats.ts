import { countWordChars, hangulJamo, isSpaceChar, type CharCounts } from './counting';
import type { EventLog, InputEventData, LoggedEvent } from './event-log';
import { wordIndexOf } from './event-log';

/**
 * Every measurement of a result, computed from the event log by the original client's rules (its
 * frontend/src/ts/test/events/stats.ts), re-derived here:
 * - the chart's boundaries are whole seconds from the timer's start up to its end (zen and abandoned tests end at the
 *   last key when it came less than 7 s before the end); untimed tests add a last, partial boundary at the end when
 *   at least half a second is left (Math.round of the rounded fraction);
 * - `burst` = inserted characters of each interval as wpm, `err` = wrong inserts of each interval, `wpm` = the
 *   correct-word characters typed by each boundary as wpm; `afkDuration` = intervals with neither a key press nor an
 *   input event; events after the last boundary count in the totals but in no interval;
 * - `acc` = right inserts / all inserts (a stopped insert and a wrong commit on the last word count too);
 * - key spacing = time between consecutive tracked key presses (the first one, before the timer, counts from 0),
 *   key duration = press to release per press (0 without a release).
 */

// Held here: in jest's vm context every global lookup (`Math.round`) is slow.
const { round, max, min, floor, pow, sqrt, tanh } = Math;
const EPSILON = Number.EPSILON;

export const roundTo2 = (n: number): number => round((n + EPSILON) * 100) / 100;

/** Characters over seconds as words per minute, with the client's own order of operations. */
export function wpmOf(chars: number, seconds: number): number {
  if (seconds <= 0) return 0;
  return chars / 5 / (seconds / 60);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return 0;
  let sum = values[0] as number;
  for (let i = 1; i < values.length; i++) sum = (values[i] as number) + sum;
  return sum / values.length;
}

export function stdDev(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const m = mean(values);
  let sum = pow(values[0]! - m, 2);
  for (let i = 1; i < values.length; i++) sum = sum + pow(values[i]! - m, 2);
  return sqrt(sum / values.length);
}

/** The client's consistency of a coefficient of variation (100 for none, lower the more it varies). */
export function kogasa(cv: number): number {
  return 100 * (1 - tanh(cv + pow(cv, 3) / 3 + pow(cv, 5) / 5));
}

export function isTimedTest(log: EventLog): boolean {
  const c = log.context;
  return (
    c.mode === 'time' ||
    (c.mode === 'words' && c.mode2 === '0') ||
    (c.mode === 'custom' && (c.customTextLimitMode === 'time' || c.customTextLimitValue === 0))
  );
}

function lastEndMs(log: EventLog): number | undefined {
  for (let i = log.events.length - 1; i >= 0; i--) {
    const e = log.events[i]!;
    if (e.type === 'timer' && e.data.event === 'end') return e.testMs;
  }
  return undefined;
}

/** From the last key press to the end of the test, as measured (zen included). */
export function rawLastKeyToEndMs(log: EventLog): number {
  let lastKey: number | undefined;
  let end: number | undefined;
  for (let i = log.events.length - 1; i >= 0 && (lastKey === undefined || end === undefined); i--) {
    const e = log.events[i]!;
    if (lastKey === undefined && e.type === 'keydown') lastKey = e.testMs;
    if (end === undefined && e.type === 'timer' && e.data.event === 'end') end = e.testMs;
  }
  if (lastKey === undefined || end === undefined) return 0;
  const ms = end - lastKey;
  return ms < 0 ? 0 : roundTo2(ms);
}

export function lastKeyToEndMs(log: EventLog): number {
  return log.context.mode === 'zen' ? 0 : rawLastKeyToEndMs(log);
}

export function startToFirstKeyMs(log: EventLog): number {
  if (log.context.mode === 'zen') return 0;
  let firstKey: number | undefined;
  let start: number | undefined;
  for (const e of log.events) {
    if (firstKey !== undefined && start !== undefined) break;
    if (firstKey === undefined && e.type === 'keydown') firstKey = e.testMs;
    if (start === undefined && e.type === 'timer' && e.data.event === 'start') start = e.testMs;
  }
  if (firstKey === undefined || start === undefined) return 0;
  const ms = firstKey - start;
  return ms < 0 ? 0 : roundTo2(ms);
}

/** Trailing time away is cut from zen and abandoned tests (when under 7 s). */
function trimsTrailingPause(log: EventLog): boolean {
  return log.context.mode === 'zen' || log.context.bailedOut;
}

export function chartBoundaries(log: EventLog): number[] {
  let end = lastEndMs(log);
  if (end === undefined) return [];
  let ticks = floor(end / 1000);
  if (trimsTrailingPause(log)) {
    const trailing = rawLastKeyToEndMs(log);
    if (trailing < 7000) {
      end -= trailing;
      ticks = min(ticks, floor(end / 1000));
    }
  }
  const boundaries: number[] = [];
  for (let s = 1; s <= ticks; s++) boundaries.push(s * 1000);
  if (!isTimedTest(log) && round(roundTo2(end / 1000) % 1) >= 0.5) boundaries.push(end);
  return boundaries;
}

/** The test's duration in ms as reported (hundredths of a second, except custom tests). */
export function testDurationMs(log: EventLog): number {
  let end = lastEndMs(log);
  if (end === undefined) return 0;
  if (trimsTrailingPause(log)) {
    const trailing = rawLastKeyToEndMs(log);
    if (trailing < 7000) end -= trailing;
  }
  if (log.context.mode !== 'custom') end = roundTo2(end / 1000) * 1000;
  return end;
}

/** The duration by the wall clock (Date.now at start and end), which the client compares with the measured one. */
export function dateDurationMs(log: EventLog): number {
  let start: number | undefined;
  let end: number | undefined;
  for (const e of log.events) {
    if (e.type !== 'timer' || e.data.event === 'step') continue;
    if (e.data.event === 'start') start ??= e.data.date;
    else end ??= e.data.date;
  }
  return start === undefined || end === undefined ? 0 : end - start;
}

function perInterval(
  log: EventLog,
  counts: (e: LoggedEvent) => boolean,
): { counts: number[]; boundaries: number[] } {
  const boundaries = chartBoundaries(log);
  const out: number[] = [];
  let i = 0;
  for (const boundary of boundaries) {
    let n = 0;
    for (; i < log.events.length && log.events[i]!.testMs <= boundary; i++) if (counts(log.events[i]!)) n++;
    out.push(n);
  }
  return { counts: out, boundaries };
}

const isInsert = (e: LoggedEvent) => e.type === 'input' && e.data.inputType === 'insertText';

export function insertsPerInterval(log: EventLog): number[] {
  return perInterval(log, isInsert).counts;
}

export function burstHistory(log: EventLog): number[] {
  const { counts, boundaries } = perInterval(log, isInsert);
  let previous = 0;
  return counts.map((n, i) => {
    const seconds = (boundaries[i]! - previous) / 1000;
    previous = boundaries[i]!;
    return round(wpmOf(n, seconds));
  });
}

export function errorHistory(log: EventLog): number[] {
  return perInterval(log, (e) => e.type === 'input' && e.data.inputType === 'insertText' && !e.data.correct)
    .counts;
}

export function afkSeconds(log: EventLog): number {
  return perInterval(log, (e) => e.type === 'keydown' || e.type === 'input').counts.filter((n) => n === 0)
    .length;
}

export function accuracy(log: EventLog): { correct: number; incorrect: number; percentage: number } {
  let correct = 0;
  let incorrect = 0;
  for (const e of log.events) {
    if (e.type !== 'input' || e.data.inputType !== 'insertText') continue;
    if (e.data.correct) correct++;
    else incorrect++;
  }
  const total = correct + incorrect;
  return { correct, incorrect, percentage: total === 0 ? 0 : (correct / total) * 100 };
}

export function keySpacing(log: EventLog): number[] {
  const spacing: number[] = [];
  let last: number | undefined;
  for (const e of log.events) {
    if (e.type !== 'keydown') continue;
    if (last !== undefined) spacing.push(e.testMs - last);
    last = max(0, e.testMs);
  }
  return spacing;
}

export function keyDurations(log: EventLog): number[] {
  const held = new Map<string, { at: number; index: number }>();
  const durations: number[] = [];
  for (const e of log.events) {
    if (e.type === 'keydown') {
      held.set(e.data.code, { at: e.testMs, index: durations.length });
      durations.push(0);
    } else if (e.type === 'keyup') {
      const down = held.get(e.data.code);
      if (down === undefined) continue;
      durations[down.index] = e.testMs - down.at;
      held.delete(e.data.code);
    }
  }
  return durations;
}

/** Time with two or more keys held at once, ms. */
export function keyOverlapMs(log: EventLog): number {
  const held = new Set<string>();
  let overlap = 0;
  let since: number | undefined;
  for (const e of log.events) {
    if (e.type === 'keydown') {
      held.add(e.data.code);
      if (since === undefined && held.size > 1) since = e.testMs;
    } else if (e.type === 'keyup') {
      held.delete(e.data.code);
      if (since !== undefined && held.size === 1) {
        overlap += e.testMs - since;
        since = undefined;
      }
    }
  }
  return roundTo2(overlap);
}

/** A word's final input: its last input event's text (a wrong space that ended the last word does not count). */
export function inputOfEvent(data: InputEventData): string {
  if (
    data.inputType === 'insertText' &&
    data.data === ' ' &&
    data.lastWord === true &&
    data.commitsWord === true &&
    !data.correct
  ) {
    return data.inputValue.trimEnd();
  }
  return data.inputValue;
}

/** What the log says of one word so far: its input, and whether its last event is a space typed into it. */
interface WordSoFar {
  index: number;
  input: string;
  endsWithSpace: boolean;
}

/**
 * The words touched by the events up to a time, in the order the client meets them (first event per word), and
 * which one it takes for the word being typed: the highest with some input, or the one after it when that input
 * ended with a space.
 */
class WordTally {
  readonly words = new Map<number, WordSoFar>();

  add(e: LoggedEvent): number | undefined {
    const index = wordIndexOf(e);
    if (index === undefined) return undefined;
    let word = this.words.get(index);
    if (!word) {
      word = { index, input: '', endsWithSpace: false };
      this.words.set(index, word);
    }
    if (e.type === 'input') word.input = inputOfEvent(e.data);
    word.endsWithSpace = e.type === 'input' && e.data.inputType === 'insertText' && e.data.data === ' ';
    return index;
  }

  activeIndex(): number {
    let top: WordSoFar | undefined;
    for (const word of this.words.values())
      if (word.input.length > 0 && (!top || word.index > top.index)) top = word;
    if (!top) return 0;
    return top.endsWithSpace ? top.index + 1 : top.index;
  }
}

function countWord(log: EventLog, word: WordSoFar, creditPartial: boolean): CharCounts {
  let input = '';
  for (const c of word.input) input += isSpaceChar(c) ? ' ' : c;
  if (log.context.koreanStatus) input = hangulJamo(input);
  let target = log.context.targetWords[word.index] ?? input;
  if (log.context.koreanStatus) target = hangulJamo(target);
  return countWordChars(input, target, creditPartial);
}

const NO_CHARS = (): CharCounts => ({ allCorrect: 0, correctWord: 0, incorrect: 0, extra: 0, missed: 0 });

/** The characters of the test (`charStats`, `charTotal`): each word against its target, the word being typed last. */
export function charCounts(log: EventLog, creditPartialLast = false, untilMs?: number): CharCounts {
  const tally = new WordTally();
  for (const e of log.events) {
    if (untilMs !== undefined && e.testMs > untilMs) break;
    tally.add(e);
  }
  const creditPartial = isTimedTest(log) || log.context.bailedOut || creditPartialLast;
  const active = tally.activeIndex();
  const sum = NO_CHARS();
  for (const word of tally.words.values()) {
    const last = word.index === active;
    const c = countWord(log, word, last && creditPartial);
    sum.allCorrect += c.allCorrect;
    sum.correctWord += c.correctWord;
    sum.incorrect += c.incorrect;
    sum.extra += c.extra;
    sum.missed += c.missed;
    if (last) break;
  }
  return sum;
}

/** The chart's `wpm`: correct-word characters typed by each boundary (the word being typed gets partial credit). */
export function wpmHistory(log: EventLog): number[] {
  const boundaries = chartBoundaries(log);
  const tally = new WordTally();
  const asLast = new Map<number, number>();
  const asDone = new Map<number, number>();
  const history: number[] = [];
  let i = 0;
  for (const boundary of boundaries) {
    const changed = new Set<number>();
    for (; i < log.events.length && log.events[i]!.testMs <= boundary; i++) {
      const index = tally.add(log.events[i]!);
      if (index !== undefined) changed.add(index);
    }
    for (const index of changed) {
      const word = tally.words.get(index)!;
      asDone.set(index, countWord(log, word, false).correctWord);
      asLast.set(index, countWord(log, word, true).correctWord);
    }
    const active = tally.activeIndex();
    let correct = 0;
    for (const index of tally.words.keys()) {
      if (index === active) {
        correct += asLast.get(index) ?? 0;
        break;
      }
      correct += asDone.get(index) ?? 0;
    }
    history.push(round(wpmOf(correct, boundary / 1000)));
  }
  return history;
}

/** Typing time of an abandoned test: its duration without the time away (for `incompleteTests`). */
export function incompleteSeconds(log: EventLog): number {
  const seconds = roundTo2(testDurationMs(log) / 1000 - afkSeconds(log));
  return seconds < 0 ? 0 : seconds;
}
