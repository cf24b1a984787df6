import type { Random } from '../human-typing';
import { hangulJamo } from './counting';
import { DEAD_KEY_OF } from './languages';

/**
 * Which physical keys (KeyboardEvent.code) a character takes: US QWERTY for Latin letters, digits and punctuation
 * (shift adds no tracked key), the usual national layouts for Cyrillic, Greek and Hebrew (same physical keys), a dead
 * key before some accented letters, 2-set Hangul for Korean jamo. A character of no layout here gets a fixed key.
 */

const QWERTY_ROWS = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./'];
const ROW_CODES = [
  ['Backquote', ...'1234567890'.split('').map((d) => `Digit${d}`), 'Minus', 'Equal'],
  [...'QWERTYUIOP'.split('').map((l) => `Key${l}`), 'BracketLeft', 'BracketRight', 'Backslash'],
  [...'ASDFGHJKL'.split('').map((l) => `Key${l}`), 'Semicolon', 'Quote'],
  [...'ZXCVBNM'.split('').map((l) => `Key${l}`), 'Comma', 'Period', 'Slash'],
];
const SHIFTED = '~!@#$%^&*()_+';
const SHIFTED_OTHER: Record<string, string> = {
  '{': 'BracketLeft',
  '}': 'BracketRight',
  '|': 'Backslash',
  ':': 'Semicolon',
  '"': 'Quote',
  '<': 'Comma',
  '>': 'Period',
  '?': 'Slash',
};
// National layouts on the same keys, row by row (the QWERTY letter block).
const CYRILLIC = ['ё', 'йцукенгшщзхъ', 'фывапролджэ', 'ячсмитьбю'];
const GREEK = ['', ';ςερτυθιοπ', 'ασδφγηξκλ', 'ζχψωβνμ'];
const HEBREW = ['', "/'קראטוןםפ", 'שדגכעיחלךף', 'זסבהנמצתץ'];
const JAMO = ['', 'ㅂㅈㄷㄱㅅㅛㅕㅑㅐㅔ', 'ㅁㄴㅇㄹㅎㅗㅓㅏㅣ', 'ㅋㅌㅊㅍㅠㅜㅡ'];
const JAMO_SHIFTED: Record<string, string> = {
  ㅃ: 'KeyQ',
  ㅉ: 'KeyW',
  ㄸ: 'KeyE',
  ㄲ: 'KeyR',
  ㅆ: 'KeyT',
  ㅒ: 'KeyO',
  ㅖ: 'KeyP',
};

const CODE_OF = new Map<string, string>();
ROW_CODES.forEach((codes, row) => {
  [...QWERTY_ROWS[row]!].forEach((c, i) => CODE_OF.set(c, codes[i]!));
});
[...SHIFTED].forEach((c, i) => CODE_OF.set(c, ROW_CODES[0]![i]!));
for (const [c, code] of Object.entries(SHIFTED_OTHER)) CODE_OF.set(c, code);
for (const layout of [CYRILLIC, GREEK, HEBREW, JAMO]) {
  layout.forEach((row, r) => {
    [...row].forEach((c, i) => {
      if (!CODE_OF.has(c)) CODE_OF.set(c, ROW_CODES[r]![i]!);
    });
  });
}
for (const [c, code] of Object.entries(JAMO_SHIFTED)) CODE_OF.set(c, code);
CODE_OF.set(' ', 'Space');
CODE_OF.set('\n', 'Enter');
CODE_OF.set('\t', 'Tab');
for (const [c, code] of [
  ['ä', 'Quote'],
  ['ö', 'Semicolon'],
  ['ü', 'BracketLeft'],
  ['ß', 'Minus'],
  ['ç', 'Digit9'],
  ['ñ', 'Semicolon'],
  ['←', 'KeyA'],
  ['↓', 'KeyS'],
  ['↑', 'KeyW'],
  ['→', 'KeyD'],
] as const) {
  CODE_OF.set(c, code);
}

const LETTER_CODES = ROW_CODES.slice(1)
  .flat()
  .filter((c) => c.startsWith('Key'));

/** The key of a character (its lower case's); one fixed letter key for characters of no layout here. */
export function codeOf(char: string): string {
  const lower = char.toLowerCase();
  const known = CODE_OF.get(char) ?? CODE_OF.get(lower);
  if (known) return known;
  const base = lower.normalize('NFD')[0] ?? lower;
  const viaBase = CODE_OF.get(base);
  if (viaBase) return viaBase;
  return LETTER_CODES[(char.codePointAt(0) ?? 0) % LETTER_CODES.length]!;
}

/** The keys pressed for a character: a dead key first for some accented letters (when the typist uses them). */
export function keysOf(char: string, deadKeys: boolean): string[] {
  const dead = deadKeys ? DEAD_KEY_OF[char.toLowerCase()] : undefined;
  return dead ? [dead, codeOf(char)] : [codeOf(char)];
}

/** The 2-set keys of a Hangul syllable (each jamo one key, doubled consonants with shift). */
export function hangulKeys(syllable: string): string[] {
  return [...hangulJamo(syllable)].map(codeOf);
}

/** A character next to the intended one on the keyboard (a slip of the finger), in the intended case. */
export function slipOf(char: string, rng: Random, alphabet: string): string {
  const lower = char.toLowerCase();
  for (const row of QWERTY_ROWS) {
    const i = row.indexOf(lower);
    if (i < 0) continue;
    const neighbours = [row[i - 1], row[i + 1]].filter(
      (c): c is string => c !== undefined && /[a-z0-9]/.test(c),
    );
    if (neighbours.length === 0) break;
    const slip = neighbours[rng.int(0, neighbours.length - 1)]!;
    return char === lower ? slip : slip.toUpperCase();
  }
  const letters = [...alphabet].filter((c) => c !== char);
  return letters.length > 0 ? letters[rng.int(0, letters.length - 1)]! : char === 'x' ? 'z' : 'x';
}
