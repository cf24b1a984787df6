import { isSpaceChar, normaliseTyped } from './counting';
import type {
  CustomLimitMode,
  EventLog,
  EventLogContext,
  InputEventData,
  InsertEventData,
  TestMode,
} from './event-log';
import { hasHangul } from './counting';
import { EventRecorder } from './recorder';
import type { IncompleteTest } from './result';
import { accuracy, incompleteSeconds, inputOfEvent, roundTo2 } from './stats';

/**
 * The original client's typing test as a state machine (its frontend/src/ts/input/ handlers, test-logic.ts and
 * test-timer.ts), re-derived: what each key press, insert, delete, composition and timer tick does to the words and
 * the text field, what it records, and when the test starts, fails and ends. The typist (typist.ts) drives it with
 * timed actions; the recorder (recorder.ts) keeps the log the result is computed from (result.ts).
 *
 * The text field holds the word being typed. A character is `correct` when it is the target's character at the
 * input's length. A separator (space, or Enter in zen) moves on to the next word unless stop-on-error holds it back
 * (nospace tests move on with the word's last letter). Backspace on an empty word goes back into the previous word
 * when that one is wrong. Word tests end when the last word is typed right, or with a separator on it; timed tests
 * when the timer reaches the limit; zen with shift+Enter; infinite and very long tests can be abandoned with
 * shift+Enter twice within 200 ms (`bailedOut`).
 */

export type StopOnError = 'off' | 'letter' | 'word';
export type Difficulty = 'normal' | 'expert' | 'master';

export interface ClientConfig {
  mode: TestMode;
  mode2: string;
  /** Seconds of a timed test (time mode, or custom with a time limit); 0 for none. */
  timeLimit: number;
  customLimit?: { mode: CustomLimitMode; value: number };
  /** The target words without their separators (none in zen). */
  words: readonly string[];
  /** All words exist from the start (words, quote, custom word or section limit): the last has no separator. */
  allWordsGenerated: boolean;
  language: string;
  /** A funbox with the nospace property: no separators, a word ends with its last letter. */
  nospace: boolean;
  stopOnError: StopOnError;
  difficulty: Difficulty;
  /** Quick restart is off for this test (infinite or very long), so shift+Enter twice abandons it. */
  canBailOut: boolean;
}

export interface ClientClock {
  /** `Date.now()` at a `performance.now()` time. */
  dateAt(ms: number): number;
  /** The delay between a timer tick or a key and the end of the test it causes, ms. */
  finishDelay(): number;
  /** How late the timer's tick fires after its whole second (requestAnimationFrame), ms. */
  tickDrift(): number;
}

export class ClientTest {
  readonly recorder = new EventRecorder();
  readonly targets: string[];
  active = 0;
  /** The text field: the input of the active word. */
  field = '';
  startMs: number | undefined;
  endMs: number | undefined;
  failed: string | null = null;
  bailedOut = false;
  private ticks = 0;
  private drift = 0;
  private composing = false;
  private lastBailoutAttempt = -1;
  /** Per word, its input as the log tells it (the client's getInputForWord). */
  private readonly logged = new Map<number, string>();
  private lastInput: { wordIndex: number; inputValue: string } | undefined;

  constructor(
    readonly config: ClientConfig,
    private readonly clock: ClientClock,
  ) {
    const separator = config.nospace ? '' : ' ';
    this.targets = config.words.map((w) => w + separator);
    const last = this.targets.length - 1;
    if (config.allWordsGenerated && last >= 0 && config.words[last] !== '')
      this.targets[last] = config.words[last]!;
  }

  get started(): boolean {
    return this.startMs !== undefined;
  }

  get finished(): boolean {
    return this.endMs !== undefined || this.failed !== null;
  }

  /** When the timer's next tick fires (its whole second, late by a frame or so), if the timer runs. */
  nextTickMs(): number | undefined {
    if (this.startMs === undefined || this.finished) return undefined;
    return this.startMs + (this.ticks + 1) * 1000 + this.drift;
  }

  wordInput(index: number): string {
    return this.logged.get(index) ?? '';
  }

  /** What the client takes for the active word's input (from the log, not the field). */
  currentInput(): string {
    const last = this.lastInput;
    if (last !== undefined) {
      if (last.wordIndex + 1 === this.active) return '';
      if (last.wordIndex === this.active) return last.inputValue;
    }
    return this.wordInput(this.active);
  }

  target(index = this.active): string {
    return this.targets[index] ?? '';
  }

  keyDown(now: number, code: string): void {
    this.recorder.keydown(now, code);
  }

  keyUp(now: number, code: string): void {
    this.recorder.keyup(now, code);
  }

  /** The timer's tick (at `nextTickMs`): a timed test ends at its limit. */
  tick(): void {
    const now = this.nextTickMs();
    if (now === undefined) return;
    this.ticks++;
    this.drift = this.clock.tickDrift();
    if (this.config.timeLimit > 0 && this.ticks >= this.config.timeLimit)
      this.finish(now + this.clock.finishDelay());
    this.recorder.timer(now, { event: 'step', timer: this.ticks });
  }

  /** Characters typed (one key, a phone's word, an input method's text, or a character the client emulates). */
  type(now: number, data: string, via: 'key' | 'composition' = 'key'): void {
    if (via === 'key' && this.blocksInsert(data)) return;
    this.field += data;
    this.onInsert(now, data, via === 'composition');
  }

  /** Backspace (one character) or ctrl+Backspace (the word), after its key press. */
  deleteBackward(now: number, kind: 'char' | 'word'): void {
    if (!this.started || this.finished || this.composing) return;
    if (this.field === '') {
      if (this.active === 0) return;
      const previousCorrect = this.wordInput(this.active - 1) === this.targets[this.active - 1];
      if (previousCorrect) return;
    }
    const inputType = kind === 'char' ? 'deleteContentBackward' : 'deleteWordBackward';
    const before = this.currentInput();
    // The field holds a leading space the browser can delete: on an empty word that takes the client back a word.
    const real = ` ${this.field}`;
    const after = kind === 'char' ? real.slice(0, -1) : real.replace(/(?:\S+\s*|\s+)$/, '');
    if (after === '') {
      this.active--;
      const previous = this.wordInput(this.active);
      if (kind === 'word') this.field = '';
      else if (this.config.nospace || previous.endsWith(' ') || previous.endsWith('\n')) {
        this.field = previous.slice(0, -1);
      } else this.field = previous;
      this.logInput(now, {
        inputType,
        wordIndex: this.active,
        charIndex: this.field.length,
        inputValue: this.field,
        ...(before !== '' ? { clearedNextWord: true as const } : {}),
      });
    } else {
      this.field = after.slice(1);
      this.logInput(now, {
        inputType,
        wordIndex: this.active,
        charIndex: before.length,
        inputValue: this.field,
      });
    }
  }

  /**
   * Shift+Enter, after its key press: ends zen, or (twice within 200 ms) abandons a long test. (A plain Enter only
   * inserts a line break, which only zen takes: `type('\n')`.)
   */
  shiftEnter(now: number): void {
    if (this.finished) return;
    if (this.config.mode === 'zen') return this.finish(now + this.clock.finishDelay());
    if (this.config.canBailOut) {
      const date = this.clock.dateAt(now);
      const delay = date - this.lastBailoutAttempt;
      if (this.lastBailoutAttempt === -1 || delay > 200) {
        this.lastBailoutAttempt = date;
        return;
      }
      this.bailedOut = true;
      this.finish(now + this.clock.finishDelay());
    }
  }

  compositionStart(now: number): void {
    if (this.finished) return;
    this.composing = true;
    if (!this.started) this.start(now);
    this.recorder.composition(now, { event: 'start', wordIndex: this.active });
  }

  compositionUpdate(now: number, data: string): void {
    if (this.finished) return;
    this.recorder.composition(now, { event: 'update', data, wordIndex: this.active });
  }

  compositionEnd(now: number, data: string): void {
    if (this.finished) return;
    this.composing = false;
    if (data !== '') this.type(now, data, 'composition');
    this.recorder.composition(now, { event: 'end', data, wordIndex: this.active });
  }

  /** Ends the test at `now` (the timer's end event); nothing typed after it counts. */
  finish(now: number): void {
    if (this.finished || this.startMs === undefined) return;
    this.endMs = now;
    this.recorder.calculating = true;
    this.recorder.timer(now, {
      event: 'end',
      timer: Math.floor((now - this.startMs) / 1000),
      date: this.clock.dateAt(now),
    });
  }

  /**
   * A restart of the running test: the client ends its timer and keeps the test's accuracy (100 without inserts)
   * and its typing time (duration without time away) as an incomplete test. Nothing is cleaned up first.
   */
  abandon(now: number): IncompleteTest {
    this.recorder.timer(now, {
      event: 'end',
      timer: Math.floor((now - (this.startMs ?? now)) / 1000),
      date: this.clock.dateAt(now),
    });
    const log = this.recorder.log(this.context());
    const { correct, incorrect } = accuracy(log);
    const live = correct + incorrect === 0 ? 100 : (correct / (correct + incorrect)) * 100;
    return { acc: roundTo2(live), seconds: incompleteSeconds(log) };
  }

  /** The log as the client builds it once the keys still held are released (estimated) and the log cleaned up. */
  eventLog(): EventLog {
    this.recorder.releaseAll();
    this.recorder.cleanUp();
    return this.recorder.log(this.context());
  }

  context(): EventLogContext {
    const { mode, mode2, customLimit } = this.config;
    return {
      targetWords: [...this.targets],
      mode,
      mode2,
      ...(customLimit
        ? { customTextLimitMode: customLimit.mode, customTextLimitValue: customLimit.value }
        : {}),
      bailedOut: this.bailedOut,
      koreanStatus: hasHangul(this.config.words.join()),
    };
  }

  private start(now: number): void {
    this.startMs = now;
    this.drift = this.clock.tickDrift();
    this.recorder.timer(now, { event: 'start', timer: 0, date: this.clock.dateAt(now) });
  }

  private isSeparator(data: string): boolean {
    return isSpaceChar(data) || data === '\n';
  }

  /** Inserts the client refuses before they reach the field (its onBeforeInsertText). */
  private blocksInsert(data: string): boolean {
    if (this.finished) return true;
    const zen = this.config.mode === 'zen';
    if (data === '\n' && !zen) return true;
    if (isSpaceChar(data) && this.config.nospace) return true;
    const target = this.target();
    const normalised = normaliseTyped(data, this.field, target, this.config.language);
    const strict = this.config.difficulty !== 'normal';
    if (isSpaceChar(normalised) && this.field === '' && !strict) return true;
    const limit = zen ? 30 : target.length + 20;
    return (
      this.field.length >= limit &&
      !this.movesOn(normalised, this.field, target, this.commitKind(normalised, this.field, target))
    );
  }

  private commitKind(data: string, input: string, target: string): 'separator' | 'nospace' | false {
    if (this.isSeparator(data)) return 'separator';
    if (this.config.nospace && (input + data).length === target.length) return 'nospace';
    return false;
  }

  private movesOn(
    data: string,
    input: string,
    target: string,
    kind: 'separator' | 'nospace' | false,
  ): boolean {
    if (kind === false) return false;
    if (this.config.mode === 'zen') return true;
    if (input.length === 0 && kind === 'separator' && this.config.difficulty !== 'normal') return false;
    return this.config.stopOnError === 'off' || input + data === target;
  }

  private onInsert(now: number, typed: string, fromComposition: boolean, lastOfMany = true): void {
    if (typed.length > 1) {
      // Several characters at once (a phone's word, an input method's text): inserted one by one, each checked.
      this.field = this.field.slice(0, -typed.length);
      for (let i = 0; i < typed.length; i++) {
        const char = typed[i]!;
        if (this.blocksInsert(char)) continue;
        this.field += char;
        this.onInsert(now, char, fromComposition, i === typed.length - 1);
      }
      return;
    }
    const before = this.currentInput();
    const target = this.target();
    const data = normaliseTyped(typed, before, target, this.config.language);
    if (data !== typed) this.field = this.field.slice(0, -1) + data;
    if (!this.started) this.start(now);
    const wordIndex = this.active;
    const zen = this.config.mode === 'zen';
    const kind = this.commitKind(data, before, target);
    const wanted = target[before.length];
    const correct = zen || (wanted !== undefined && data === wanted);
    const stopped = this.config.stopOnError === 'letter' && !correct;
    const movesOn = !stopped && this.movesOn(data, before, target, kind);
    if (stopped) this.field = this.field.slice(0, -1);
    const event: InsertEventData = {
      inputType: 'insertText',
      data,
      correct,
      wordIndex,
      charIndex: before.length,
      inputValue: this.field,
    };
    if (fromComposition) event.isCompositionEnding = true;
    if (stopped) event.inputStopped = true;
    if (movesOn) event.commitsWord = true;
    if (wordIndex === this.targets.length - 1) event.lastWord = true;
    this.logInput(now, event);
    if (movesOn) {
      if (this.active < this.targets.length - 1 || zen) this.active++;
      this.field = '';
    }
    if (!lastOfMany || this.composing) return;
    const expertFail =
      this.config.difficulty === 'expert' &&
      kind !== false &&
      !(kind === 'separator' && before.length === 0) &&
      before + data !== target;
    if (expertFail || (this.config.difficulty === 'master' && !correct)) {
      this.failed = 'difficulty';
      return;
    }
    const allTyped = wordIndex >= this.targets.length - 1;
    if (this.config.allWordsGenerated && allTyped && (before + data === target || movesOn)) {
      this.finish(now + this.clock.finishDelay());
    }
  }

  private logInput(now: number, data: InputEventData): void {
    this.recorder.input(now, data);
    this.logged.set(data.wordIndex, inputOfEvent(data));
    this.lastInput = { wordIndex: data.wordIndex, inputValue: data.inputValue };
  }
}
