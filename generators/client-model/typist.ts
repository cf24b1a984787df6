import type { Random } from '../human-typing';
import type { ClientTest, StopOnError } from './client';
import { hangulKeys, keysOf, slipOf } from './keys';
import type { Typing } from './languages';

/**
 * A person typing, as a policy over what the client shows: the word to type and what is in the text field. Each
 * step is one action (a character's keys, a backspace, ctrl+backspace, an input method's composition, shift+Enter).
 * Slips of every kind the client must count (a wrong letter, a letter left out, one too many, two swapped, a letter
 * typed past the word's end, the space pressed early); some are corrected at once or a few keys later with backspace,
 * some by clearing the word with ctrl+backspace and retyping it, some after the word was committed (backspace on the
 * next, empty word goes back into it), the rest left in. The timing is the runner's (session.ts).
 */

export interface TypistProfile {
  /** Keystroke speed as wpm (12000 / wpm ms per key on average). */
  wpm: number;
  intervalCv: number;
  holdMeanMs: number;
  holdCv: number;
  /** Share of keys preceded by a hesitation. */
  hesitation: number;
  /** Share of characters with a slip. */
  slipRate: number;
  /** Share of slips corrected. */
  fixRate: number;
  /** Of the corrections, the share made after the word was committed (going back into it). */
  lateFix: number;
  /** Of the corrections, the share made by clearing the word with ctrl+backspace. */
  clearFix: number;
  /** Pauses of several seconds (time away) per minute. */
  afkPerMinute: number;
  device: 'keyboard' | 'phone';
  /** Phone: share of words finished by a suggestion (the rest of the word and its space in one insert). */
  suggestionRate: number;
  /** Accented letters with a dead key first. */
  deadKeys: boolean;
}

/** One thing the typist does; `slow` scales the pause before it, `gapMs` replaces it. */
export type Action =
  | { kind: 'text'; data: string; keys: string[]; slow?: number; gapMs?: number }
  | { kind: 'delete'; word: boolean; keys: string[]; slow?: number; gapMs?: number }
  | { kind: 'compose'; keys: string[]; text: string; commitKey?: string; slow?: number; gapMs?: number }
  | { kind: 'shiftEnter'; slow?: number; gapMs?: number }
  | { kind: 'stop' };

export interface TypistSetting {
  typing: Typing;
  alphabet: string;
  readings?: Readonly<Record<string, string>>;
  nospace: boolean;
  stopOnError: StopOnError;
  /** Every slip must be corrected before the word is committed (stop on word, expert). */
  mustFix: boolean;
  blind: boolean;
  /** Zen: the typist's own words (the client has none). */
  zenWords?: readonly string[];
  /** When to end: zen's shift+Enter, or the double shift+Enter of an abandoned test, ms after the start. */
  endAtMs?: number;
}

interface Fix {
  delay: number;
  late: boolean;
  clear: boolean;
}

interface WordState {
  /** The next character of the target the typist means to type. */
  cursor: number;
  /** Zen: the word the typist means to type (the client has none). */
  target?: string;
  fix?: Fix;
  sinceSlip: number;
}

/** The first position where the input leaves its target (-1 while it is a prefix of it). */
export function firstMismatch(input: string, target: string): number {
  for (let i = 0; i < input.length; i++) if (input[i] !== target[i]) return i;
  return -1;
}

export class Typist {
  private readonly words = new Map<number, WordState>();
  private readonly queue: Action[] = [];
  private ending = false;

  constructor(
    readonly profile: TypistProfile,
    private readonly setting: TypistSetting,
    private readonly rng: Random,
  ) {}

  next(client: ClientTest, elapsedMs: number): Action {
    const queued = this.queue.shift();
    if (queued) return queued;
    if (this.ending) return { kind: 'stop' };
    const { endAtMs } = this.setting;
    if (endAtMs !== undefined && elapsedMs >= endAtMs && client.started) {
      this.ending = true;
      if (client.config.mode === 'zen') return { kind: 'shiftEnter', slow: 1.5 };
      this.queue.push({ kind: 'shiftEnter', gapMs: 60 + this.rng.next() * 110 });
      return { kind: 'shiftEnter', slow: 1.5 };
    }
    return this.step(client);
  }

  private state(index: number): WordState {
    let state = this.words.get(index);
    if (!state) {
      state = { cursor: 0, sinceSlip: 0 };
      this.words.set(index, state);
    }
    return state;
  }

  private intended(client: ClientTest, index: number): string {
    const own = this.setting.zenWords;
    if (!own) return client.target(index);
    const word = own[index % own.length]!;
    return word + (this.rng.next() < 0.03 ? '\n' : ' ');
  }

  private step(client: ClientTest): Action {
    const index = client.active;
    const zen = this.setting.zenWords !== undefined;
    const state = this.state(index);
    const input = zen ? client.field : client.currentInput();
    const target = zen ? (state.target ??= this.intended(client, index)) : client.target(index);
    if (this.setting.stopOnError === 'letter') state.cursor = input.length;
    const err = firstMismatch(input, target);

    if (input === '' && index > 0 && !zen) {
      const previous = this.words.get(index - 1);
      if (previous?.fix?.late && client.wordInput(index - 1) !== client.target(index - 1)) {
        previous.fix = { delay: 0, late: false, clear: false };
        previous.cursor = Math.max(0, client.wordInput(index - 1).length - 1);
        return this.deletion(false, 1.8);
      }
    }
    const fix = state.fix;
    const atEnd = state.cursor >= target.length || this.isSeparator(target[state.cursor]);
    if (err >= 0 && fix && !fix.late && (state.sinceSlip >= fix.delay || atEnd))
      return this.correct(state, input, err);
    if (err >= 0 && atEnd && this.setting.mustFix) return this.correct(state, input, err);
    if (state.cursor >= target.length) {
      // The word is typed as intended but not done (a letter left out of the last word): commit it.
      if (this.setting.nospace) return this.char(state, target[target.length - 1] ?? 'a');
      if (target === '') return { kind: 'stop' };
      return { kind: 'text', data: ' ', keys: this.keys(' ') };
    }
    return this.typeNext(client, state, target, input);
  }

  private isSeparator(char: string | undefined): boolean {
    return !this.setting.nospace && (char === ' ' || char === '\n');
  }

  private typeNext(client: ClientTest, state: WordState, target: string, input: string): Action {
    const ch = target[state.cursor]!;
    const { slipRate, device, suggestionRate } = this.profile;
    const roll = this.rng.next();
    if (this.isSeparator(ch)) {
      if (roll < slipRate * 0.25 && this.setting.stopOnError !== 'letter') {
        this.slipped(state);
        return this.char(state, slipOf(target[state.cursor - 1] ?? 'e', this.rng, this.setting.alphabet));
      }
      state.cursor++;
      return { kind: 'text', data: ch, keys: this.keys(ch), slow: 1.25 };
    }
    if (this.setting.typing === 'kana' || this.setting.typing === 'pinyin')
      return this.composeWord(state, target);
    if (
      device === 'phone' &&
      state.cursor >= 2 &&
      input === target.slice(0, state.cursor) &&
      roll < suggestionRate / Math.max(1, target.length - 2)
    ) {
      const rest = target.slice(state.cursor);
      state.cursor = target.length;
      return { kind: 'text', data: rest, keys: ['NoCode'], slow: 1.6 };
    }
    if (roll >= slipRate || client.config.difficulty === 'master') {
      state.cursor++;
      return this.char(state, ch);
    }
    this.slipped(state);
    const next = target[state.cursor + 1];
    const kind = this.rng.next();
    if (kind < 0.5 || this.setting.typing === 'korean') {
      state.cursor++;
      return this.char(state, slipOf(ch, this.rng, this.setting.alphabet));
    }
    if (kind < 0.65 && next !== undefined && !this.isSeparator(next)) {
      state.cursor += 2;
      return this.char(state, next);
    }
    if (kind < 0.77) return this.char(state, slipOf(ch, this.rng, this.setting.alphabet));
    if (kind < 0.87 && next !== undefined && !this.isSeparator(next)) {
      state.cursor += 2;
      this.queue.push(this.char(state, ch));
      return this.char(state, next);
    }
    if (state.cursor >= 1 && !this.setting.nospace && next !== undefined) {
      // The space pressed early: the rest of the word is missed.
      state.cursor = target.length;
      return { kind: 'text', data: ' ', keys: this.keys(' '), slow: 1.1 };
    }
    state.cursor++;
    return this.char(state, slipOf(ch, this.rng, this.setting.alphabet));
  }

  private slipped(state: WordState): void {
    const { fixRate, lateFix, clearFix, device } = this.profile;
    const must = this.setting.mustFix;
    const rate = this.setting.blind ? fixRate * 0.5 : fixRate;
    state.sinceSlip = 0;
    if (state.fix) return;
    if (!must && this.rng.next() >= rate) return;
    state.fix = {
      delay: this.rng.pick([
        [0, 0.55],
        [1, 0.25],
        [2, 0.12],
        [3, 0.08],
      ] as const),
      late: !must && this.setting.zenWords === undefined && this.rng.next() < lateFix,
      clear: device === 'keyboard' && this.rng.next() < clearFix,
    };
  }

  private correct(state: WordState, input: string, err: number): Action {
    const fix = state.fix;
    state.fix = undefined;
    const wrongChars = input.length - err;
    if ((fix?.clear || wrongChars > 6) && this.profile.device === 'keyboard') {
      state.cursor = 0;
      return this.deletion(true, 1.8);
    }
    state.cursor = err;
    for (let i = 1; i < wrongChars; i++) this.queue.push(this.deletion(false, 0.8));
    return this.deletion(false, 1.8);
  }

  private deletion(word: boolean, slow: number): Action {
    return { kind: 'delete', word, keys: [this.profile.device === 'phone' ? 'NoCode' : 'Backspace'], slow };
  }

  private keys(char: string): string[] {
    if (this.profile.device === 'phone') return ['NoCode'];
    return keysOf(char, this.profile.deadKeys);
  }

  /** The action typing one character (the cursor is the caller's). */
  private char(state: WordState, char: string): Action {
    if (state.fix) state.sinceSlip++;
    if (this.setting.typing === 'korean' && /[\uac00-\ud7a3]/.test(char)) {
      return { kind: 'compose', keys: hangulKeys(char), text: char };
    }
    return { kind: 'text', data: char, keys: this.keys(char) };
  }

  /** A whole word through an input method: its reading keyed, then committed (Enter for kana, Space for pinyin). */
  private composeWord(state: WordState, target: string): Action {
    const end = target.endsWith(' ') ? target.length - 1 : target.length;
    let word = target.slice(state.cursor, end);
    const reading = this.setting.readings?.[word] ?? word;
    if (this.rng.next() < this.profile.slipRate * word.length) {
      this.slipped(state);
      const at = this.rng.int(0, word.length - 1);
      word = word.slice(0, at) + slipOf(word[at]!, this.rng, this.setting.alphabet) + word.slice(at + 1);
    }
    state.cursor = end;
    const commitKey = this.setting.typing === 'kana' ? 'Enter' : 'Space';
    return { kind: 'compose', keys: [...reading].map((c) => keysOf(c, false)[0]!), text: word, commitKey };
  }
}
