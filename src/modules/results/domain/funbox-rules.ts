import { FUNBOXES, type Funbox } from './funboxes';

const WORD_SOURCES = ['getWord', 'pullSection', 'withWords'];

function has(funbox: Funbox, trait: string): boolean {
  return funbox.traits.includes(trait);
}

function hasPrefix(funbox: Funbox, prefix: string): boolean {
  return funbox.traits.some((t) => t.startsWith(prefix));
}

function countWhere(funboxes: Funbox[], test: (f: Funbox) => boolean): number {
  return funboxes.filter(test).length;
}

function cssTargetsUnique(funboxes: Funbox[]): boolean {
  const targets = funboxes.flatMap((f) => f.traits.filter((t) => t.startsWith('css:')));
  return new Set(targets).size === targets.length;
}

/**
 * Whether funboxes can run together (the client refuses such combinations, so a result naming one was not made by
 * it): one source of words, one word-order change, one visibility change, one capitalisation change, one
 * `nospace`/look-ahead change, one voice, no layout change next to layout-bound funboxes, no frequency change with
 * language-free words, no capitalisation change without letters, each page element styled once. Unknown names fail.
 * (The settings funboxes force never conflict within the current list, so they are not compared.)
 */
export function areFunboxesCompatible(names: string[]): boolean {
  const funboxes: Funbox[] = [];
  for (const name of names) {
    const funbox = FUNBOXES[name];
    if (!funbox) return false;
    funboxes.push(funbox);
  }
  const any = (trait: string) => funboxes.some((f) => has(f, trait));
  return (
    countWhere(funboxes, (f) => WORD_SOURCES.some((s) => has(f, s))) <= 1 &&
    countWhere(funboxes, (f) => hasPrefix(f, 'wordOrder:')) <= 1 &&
    countWhere(funboxes, (f) => has(f, 'changesWordsVisibility')) <= 1 &&
    countWhere(funboxes, (f) => has(f, 'changesCapitalisation')) <= 1 &&
    countWhere(funboxes, (f) => has(f, 'nospace') || hasPrefix(f, 'toPush:')) <= 1 &&
    countWhere(funboxes, (f) => has(f, 'changesWordsFrequency')) <= 1 &&
    countWhere(funboxes, (f) => has(f, 'speaks')) <= 1 &&
    countWhere(funboxes, (f) => has(f, 'punctuateWord')) <= 1 &&
    !(any('speaks') && any('unspeakable')) &&
    !(any('changesLayout') && (any('ignoresLayout') || any('usesLayout'))) &&
    !(any('changesWordsFrequency') && any('ignoresLanguage')) &&
    !(any('noLetters') && any('changesCapitalisation')) &&
    !(any('conflictsWithSymmetricChars') && any('symmetricChars')) &&
    cssTargetsUnique(funboxes)
  );
}

/** Whether the funboxes allow a personal best (domain facts §1.4). */
export function funboxesAllowPb(names: string[]): boolean {
  return names.every((name) => FUNBOXES[name]?.canGetPb === true);
}

export function funboxDifficulties(names: string[]): number[] {
  return names.map((name) => FUNBOXES[name]?.difficulty ?? 0);
}
