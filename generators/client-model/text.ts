import type { Random } from '../human-typing';
import type { LanguageModel } from './languages';

/**
 * The words of a test as the client would show them: drawn from a language's list, with punctuation and numbers when
 * those are on, changed by the funboxes that change text (case, order of letters, doubled letters, rot13, their own
 * words: numbers, binary, hexadecimal, gibberish, ASCII, specials; nospace funboxes), without accents in lazy mode.
 * Quotes are sentences with typographic quotes and dashes the typist types plainly (the client takes them as equal).
 */

/** Funboxes that change the words, what they do, and whether the words have no separators (`nospace`). */
export const TEXT_FUNBOXES = [
  'rAnDoMcAsE',
  'sPoNgEcAsE',
  'capitals',
  'ALL_CAPS',
  'backwards',
  'ddoouubblleedd',
  'rot13',
  '58008',
  'binary',
  'hexadecimal',
  'gibberish',
  'ascii',
  'specials',
  'nospace',
  'underscore_spaces',
] as const;
/** Funboxes that change how the test looks or is read, not its words. */
export const LOOK_FUNBOXES = [
  'mirror',
  'upside_down',
  'nausea',
  'round_round_baby',
  'choo_choo',
  'earthquake',
  'space_balls',
  'crt',
  'read_ahead',
  'read_ahead_easy',
  'memory',
  'plus_one',
  'plus_two',
  'layoutfluid',
  'no_quit',
] as const;
export const NOSPACE_FUNBOXES: ReadonlySet<string> = new Set([
  'nospace',
  'underscore_spaces',
  'arrows',
  'morse',
]);
/** Funboxes whose characters the client inserts itself on the key press (emulated layouts, 58008's Enter). */
export const EMULATING_FUNBOXES: ReadonlySet<string> = new Set(['layoutfluid', '58008']);

export interface TextSettings {
  language: LanguageModel;
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
  funbox: readonly string[];
}

const pick = <T>(rng: Random, list: readonly T[]): T => list[rng.int(0, list.length - 1)]!;
const digits = (rng: Random, n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');
const capitalise = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

function funboxWord(rng: Random, funbox: string): string | null {
  switch (funbox) {
    case '58008':
      return String(rng.int(1, 9)) + digits(rng, rng.int(0, 6));
    case 'binary':
      return Array.from({ length: 8 }, () => rng.int(0, 1)).join('');
    case 'hexadecimal':
      return Array.from({ length: rng.int(2, 6) }, () => '0123456789abcdef'[rng.int(0, 15)]).join('');
    case 'gibberish':
      return Array.from({ length: rng.int(2, 8) }, () => 'abcdefghijklmnopqrstuvwxyz'[rng.int(0, 25)]).join(
        '',
      );
    case 'ascii':
      return Array.from({ length: rng.int(2, 6) }, () => String.fromCharCode(rng.int(33, 126))).join('');
    case 'specials':
      return Array.from(
        { length: rng.int(2, 6) },
        () => '`~!@#$%^&*()-_=+[]{};:\'",.<>/?|'[rng.int(0, 30)],
      ).join('');
    default:
      return null;
  }
}

function alterWord(rng: Random, word: string, funbox: string): string {
  switch (funbox) {
    case 'rAnDoMcAsE':
      return [...word].map((c) => (rng.next() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
    case 'sPoNgEcAsE':
      return [...word].map((c, i) => (i % 2 === 0 ? c.toLowerCase() : c.toUpperCase())).join('');
    case 'capitals':
      return capitalise(word);
    case 'ALL_CAPS':
      return word.toUpperCase();
    case 'backwards':
      return [...word].reverse().join('');
    case 'ddoouubblleedd':
      return [...word].map((c) => c + c).join('');
    case 'rot13':
      return word.replace(/[a-z]/gi, (c) => {
        const base = c <= 'Z' ? 65 : 97;
        return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
      });
    default:
      return word;
  }
}

/** Punctuation the client's punctuation mode adds (in its spirit: sentences, commas, quotes, contractions). */
function punctuate(rng: Random, words: string[]): string[] {
  let sentenceStart = true;
  return words.map((word, i) => {
    let w = sentenceStart ? capitalise(word) : word;
    sentenceStart = false;
    const roll = rng.next();
    if (i === words.length - 1 || roll < 0.1) {
      w += pick(rng, ['.', '.', '.', '?', '!']);
      sentenceStart = true;
    } else if (roll < 0.2) w += ',';
    else if (roll < 0.23) w += pick(rng, [';', ':']);
    else if (roll < 0.26) w = `"${w}"`;
    else if (roll < 0.28) w = `(${w})`;
    else if (roll < 0.31 && /^[a-z]+$/.test(w)) w += "'s";
    else if (roll < 0.33) w = '-';
    return w;
  });
}

export function stripAccents(word: string): string {
  return word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
}

/** `count` words of a test (no separators; a nospace funbox's marker words keep theirs). */
export function testWords(rng: Random, settings: TextSettings, count: number): string[] {
  const source = settings.funbox.map((f) => funboxWord(rng, f)).some((w) => w !== null);
  let words = Array.from({ length: count }, () => {
    if (source) {
      for (const f of settings.funbox) {
        const w = funboxWord(rng, f);
        if (w !== null) return w;
      }
    }
    return pick(rng, settings.language.words);
  });
  if (!source && settings.numbers) {
    words = words.map((w) => (rng.next() < 0.12 ? String(rng.int(0, 10 ** rng.int(1, 4))) : w));
  }
  if (!source && settings.punctuation && settings.language.typing === 'keys') words = punctuate(rng, words);
  if (settings.lazyMode) words = words.map(stripAccents);
  for (const f of settings.funbox) words = words.map((w) => alterWord(rng, w, f));
  if (settings.funbox.includes('underscore_spaces'))
    words = words.map((w, i) => (i < words.length - 1 ? `${w}_` : w));
  return words;
}

/** A quote: sentences of the language with typographic punctuation; its length group (0 short ... 3 thicc). */
export function quoteWords(rng: Random, language: LanguageModel, group: number): string[] {
  const chars = [rng.int(60, 100), rng.int(101, 300), rng.int(301, 600), rng.int(601, 900)][group]!;
  const words: string[] = [];
  let length = -1;
  let sentenceStart = true;
  while (length < chars) {
    let w = pick(rng, language.words);
    if (language.typing === 'keys') {
      if (sentenceStart) w = capitalise(w);
      sentenceStart = false;
      const roll = rng.next();
      if (roll < 0.08) {
        w += '.';
        sentenceStart = true;
      } else if (roll < 0.15) w += ',';
      else if (roll < 0.18 && /^[a-z]+$/.test(w)) w += '’s';
      else if (roll < 0.2) w = `“${w}”`;
      else if (roll < 0.21) w = '—';
    }
    words.push(w);
    length += w.length + 1;
  }
  const last = words.length - 1;
  if (language.typing === 'keys' && !/[.!?]$/.test(words[last]!)) words[last] += '.';
  return words;
}
