/**
 * How the original client counts the characters of one word (its `countChars`, frontend/src/ts/utils/strings.ts),
 * which characters it takes for one another, and how it reads a word's final input from the log. Written from the
 * rules, not from its code.
 *
 * A word is compared with its target *including the separator after it* (the target words keep their trailing space;
 * the typed input keeps the space that committed it). Per position:
 * - the same character: `allCorrect`, except the target's space of a word that is not entirely right, which counts
 *   as `extra` (so one wrong letter left in a word costs that letter as `incorrect` AND its space as `extra`);
 * - nothing typed there: `missed` (not counted for the word still being typed when partial words get credit);
 * - past the target's end, or a non-space typed where the target's space is while the input holds no space: `extra`;
 * - anything else: `incorrect` (a space pressed early lands here, and the letters it skipped are `missed`).
 * `correctWord` gets every compared position of a word typed exactly, or of a partial word that is still a prefix of
 * its target when partial words get credit.
 */

export interface CharCounts {
  allCorrect: number;
  correctWord: number;
  incorrect: number;
  extra: number;
  missed: number;
}

export function countWordChars(input: string, target: string, creditPartial: boolean): CharCounts {
  const exact = input === target;
  const creditWord = exact || (creditPartial && target.startsWith(input));
  const counts: CharCounts = { allCorrect: 0, correctWord: 0, incorrect: 0, extra: 0, missed: 0 };
  const inputHasSpace = input.includes(' ');
  const positions = input.length > target.length ? input.length : target.length;
  for (let i = 0; i < positions; i++) {
    const typed = i < input.length ? input[i] : undefined;
    const wanted = i < target.length ? target[i] : undefined;
    if (typed === wanted) {
      if (wanted === ' ' && !exact) counts.extra++;
      else counts.allCorrect++;
      if (creditWord) counts.correctWord++;
    } else if (typed === undefined) {
      if (!creditPartial) counts.missed++;
    } else if (wanted === undefined || (wanted === ' ' && typed !== ' ' && !inputHasSpace)) {
      counts.extra++;
    } else {
      counts.incorrect++;
    }
  }
  return counts;
}

/** The space characters the client takes for the space bar's (IME, Option+Space, no-break...). */
const SPACES = new Set([
  0x20, 0x2002, 0x2003, 0x2009, 0x3000, 0xa0, 0x1680, 0x202f, 0xfeff, 0x2007, 0x2008, 0x2004, 0x200a, 0x200b,
]);

export function isSpaceChar(char: string): boolean {
  return char.length === 1 && SPACES.has(char.charCodeAt(0));
}

/** Typographic variants the client accepts for one another (apostrophes, quotes, dashes, commas). */
const EQUIVALENT: readonly ReadonlySet<string>[] = [
  new Set(['’', '‘', "'", 'ʼ', '׳', 'ʻ', '᾽']),
  new Set(['"', '”', '“', '„']),
  new Set(['–', '—', '-', '‐', '‑']),
  new Set([',', '‚']),
];
const LANGUAGE_EQUIVALENT: Record<string, ReadonlySet<string>> = { russian: new Set(['ё', 'е', 'e']) };

export function languageWithoutSize(language: string): string {
  return language.replace(/_\d*k$/, '');
}

function visuallyEqual(a: string, b: string, language: string): boolean {
  if (a === b) return true;
  if ((a === ' ' || b === ' ') && isSpaceChar(a) && isSpaceChar(b)) return true;
  if (EQUIVALENT.some((set) => set.has(a) && set.has(b))) return true;
  const own = LANGUAGE_EQUIVALENT[languageWithoutSize(language)];
  return own !== undefined && own.has(a) && own.has(b);
}

/** A typed character as the client records it: the target's own character when the two look alike. */
export function normaliseTyped(data: string, input: string, target: string, language: string): string {
  const wanted = target[input.length];
  if (wanted !== undefined && visuallyEqual(data, wanted, language)) return wanted;
  return isSpaceChar(data) ? ' ' : data;
}

// Hangul: a syllable is (lead, vowel, tail); compound vowels and tails count as their parts (as hangul-js splits
// them). Compatibility jamo (U+3131...) are what the client compares.
const LEADS = 'ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ';
const VOWELS = [
  'ㅏ',
  'ㅐ',
  'ㅑ',
  'ㅒ',
  'ㅓ',
  'ㅔ',
  'ㅕ',
  'ㅖ',
  'ㅗ',
  'ㅗㅏ',
  'ㅗㅐ',
  'ㅗㅣ',
  'ㅛ',
  'ㅜ',
  'ㅜㅓ',
  'ㅜㅔ',
  'ㅜㅣ',
  'ㅠ',
  'ㅡ',
  'ㅡㅣ',
  'ㅣ',
];
const TAILS = [
  '',
  'ㄱ',
  'ㄲ',
  'ㄱㅅ',
  'ㄴ',
  'ㄴㅈ',
  'ㄴㅎ',
  'ㄷ',
  'ㄹ',
  'ㄹㄱ',
  'ㄹㅁ',
  'ㄹㅂ',
  'ㄹㅅ',
  'ㄹㅌ',
  'ㄹㅍ',
  'ㄹㅎ',
  'ㅁ',
  'ㅂ',
  'ㅂㅅ',
  'ㅅ',
  'ㅆ',
  'ㅇ',
  'ㅈ',
  'ㅊ',
  'ㅋ',
  'ㅌ',
  'ㅍ',
  'ㅎ',
];
const COMPOUND_JAMO: Record<string, string> = {
  ㄳ: 'ㄱㅅ',
  ㄵ: 'ㄴㅈ',
  ㄶ: 'ㄴㅎ',
  ㄺ: 'ㄹㄱ',
  ㄻ: 'ㄹㅁ',
  ㄼ: 'ㄹㅂ',
  ㄽ: 'ㄹㅅ',
  ㄾ: 'ㄹㅌ',
  ㄿ: 'ㄹㅍ',
  ㅀ: 'ㄹㅎ',
  ㅄ: 'ㅂㅅ',
  ㅘ: 'ㅗㅏ',
  ㅙ: 'ㅗㅐ',
  ㅚ: 'ㅗㅣ',
  ㅝ: 'ㅜㅓ',
  ㅞ: 'ㅜㅔ',
  ㅟ: 'ㅜㅣ',
  ㅢ: 'ㅡㅣ',
};

/** A string with its Hangul syllables as their jamo (the keys a 2-set keyboard types for them). */
export function hangulJamo(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code >= 0xac00 && code <= 0xd7a3) {
      const index = code - 0xac00;
      out += LEADS[Math.floor(index / 588)] + VOWELS[Math.floor((index % 588) / 28)]! + TAILS[index % 28]!;
    } else {
      out += COMPOUND_JAMO[char] ?? char;
    }
  }
  return out;
}

/** Hangul syllables or jamo in a text (the client then counts jamo: its `koreanStatus`). */
export function hasHangul(text: string): boolean {
  return /[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\ud7b0-\ud7ff]/.test(text.normalize());
}
