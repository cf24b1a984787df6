/**
 * The funboxes a result may name (contract facts Appendix D): XP difficulty, whether a personal best can be set
 * with it, and the traits the compatibility rules look at.
 */
export interface Funbox {
  difficulty: number;
  canGetPb: boolean;
  /** Properties and client hooks, e.g. `nospace`, `toPush:2`, `wordOrder:reverse`, `getWord`, `css:words`. */
  traits: string[];
}

export const FUNBOXES: Readonly<Record<string, Funbox>> = {
  '58008': {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'ignoresLayout', 'noLetters', 'getWord', 'punctuateWord', 'getEmulatedChar'],
  },
  mirror: { difficulty: 3, canGetPb: true, traits: ['hasCssFile', 'css:main'] },
  upside_down: { difficulty: 3, canGetPb: true, traits: ['hasCssFile', 'css:main'] },
  nausea: { difficulty: 2, canGetPb: true, traits: ['hasCssFile', 'ignoreReducedMotion', 'css:typingTest'] },
  round_round_baby: {
    difficulty: 3,
    canGetPb: true,
    traits: ['hasCssFile', 'ignoreReducedMotion', 'css:typingTest'],
  },
  simon_says: {
    difficulty: 1,
    canGetPb: true,
    traits: ['hasCssFile', 'changesWordsVisibility', 'usesLayout'],
  },
  tts: {
    difficulty: 1,
    canGetPb: true,
    traits: ['hasCssFile', 'changesWordsVisibility', 'speaks', 'css:words'],
  },
  choo_choo: {
    difficulty: 2,
    canGetPb: true,
    traits: [
      'hasCssFile',
      'noJoiningScript',
      'conflictsWithSymmetricChars',
      'ignoreReducedMotion',
      'css:words',
    ],
  },
  arrows: {
    difficulty: 1,
    canGetPb: false,
    traits: [
      'ignoresLanguage',
      'ignoresLayout',
      'nospace',
      'noLetters',
      'symmetricChars',
      'getWord',
      'getEmulatedChar',
      'getWordHtml',
    ],
  },
  rAnDoMcAsE: { difficulty: 2, canGetPb: false, traits: ['changesCapitalisation'] },
  sPoNgEcAsE: { difficulty: 2, canGetPb: false, traits: ['changesCapitalisation'] },
  capitals: { difficulty: 1, canGetPb: false, traits: ['changesCapitalisation'] },
  layout_mirror: { difficulty: 3, canGetPb: true, traits: ['changesLayout'] },
  layoutfluid: { difficulty: 1, canGetPb: true, traits: ['changesLayout', 'noInfiniteDuration'] },
  earthquake: {
    difficulty: 1,
    canGetPb: true,
    traits: ['hasCssFile', 'noJoiningScript', 'ignoreReducedMotion', 'css:words'],
  },
  space_balls: { difficulty: 0, canGetPb: true, traits: ['hasCssFile', 'ignoreReducedMotion', 'css:body'] },
  gibberish: { difficulty: 1, canGetPb: false, traits: ['ignoresLanguage', 'unspeakable', 'getWord'] },
  ascii: {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'noLetters', 'unspeakable', 'getWord'],
  },
  specials: {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'noLetters', 'unspeakable', 'getWord'],
  },
  plus_zero: {
    difficulty: 1,
    canGetPb: true,
    traits: ['changesWordsVisibility', 'toPush:1', 'noInfiniteDuration'],
  },
  plus_one: {
    difficulty: 0,
    canGetPb: true,
    traits: ['changesWordsVisibility', 'toPush:2', 'noInfiniteDuration'],
  },
  plus_two: {
    difficulty: 0,
    canGetPb: true,
    traits: ['changesWordsVisibility', 'toPush:3', 'noInfiniteDuration'],
  },
  plus_three: {
    difficulty: 0,
    canGetPb: true,
    traits: ['changesWordsVisibility', 'toPush:4', 'noInfiniteDuration'],
  },
  read_ahead_easy: {
    difficulty: 1,
    canGetPb: true,
    traits: ['changesWordsVisibility', 'hasCssFile'],
  },
  read_ahead: {
    difficulty: 2,
    canGetPb: true,
    traits: ['changesWordsVisibility', 'hasCssFile'],
  },
  read_ahead_hard: {
    difficulty: 3,
    canGetPb: true,
    traits: ['changesWordsVisibility', 'hasCssFile'],
  },
  memory: {
    difficulty: 3,
    canGetPb: true,
    traits: ['changesWordsVisibility', 'noInfiniteDuration'],
  },
  nospace: { difficulty: 0, canGetPb: false, traits: ['nospace'] },
  poetry: {
    difficulty: 0,
    canGetPb: false,
    traits: ['noInfiniteDuration', 'ignoresLanguage', 'pullSection'],
  },
  wikipedia: {
    difficulty: 0,
    canGetPb: false,
    traits: ['noInfiniteDuration', 'ignoresLanguage', 'pullSection'],
  },
  weakspot: { difficulty: 0, canGetPb: false, traits: ['changesWordsFrequency', 'getWord'] },
  pseudolang: { difficulty: 0, canGetPb: false, traits: ['unspeakable', 'ignoresLanguage', 'withWords'] },
  IPv4: {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'ignoresLayout', 'noLetters', 'getWord', 'punctuateWord'],
  },
  IPv6: {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'ignoresLayout', 'noLetters', 'getWord', 'punctuateWord'],
  },
  binary: {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'ignoresLayout', 'noLetters', 'getWord'],
  },
  hexadecimal: {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'ignoresLayout', 'noLetters', 'getWord', 'punctuateWord'],
  },
  zipf: { difficulty: 0, canGetPb: false, traits: ['changesWordsFrequency'] },
  morse: {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'ignoresLayout', 'noLetters', 'nospace'],
  },
  crt: { difficulty: 0, canGetPb: true, traits: ['hasCssFile', 'noJoiningScript', 'css:body'] },
  backwards: {
    difficulty: 3,
    canGetPb: true,
    traits: [
      'hasCssFile',
      'conflictsWithSymmetricChars',
      'wordOrder:reverse',
      'reverseDirection',
      'css:words',
    ],
  },
  ddoouubblleedd: { difficulty: 1, canGetPb: true, traits: ['noJoiningScript'] },
  instant_messaging: { difficulty: 0, canGetPb: false, traits: ['changesCapitalisation'] },
  underscore_spaces: {
    difficulty: 1,
    canGetPb: false,
    traits: ['ignoresLanguage', 'ignoresLayout', 'nospace'],
  },
  ALL_CAPS: { difficulty: 1, canGetPb: false, traits: ['changesCapitalisation'] },
  polyglot: { difficulty: 1, canGetPb: false, traits: ['ignoresLanguage', 'withWords'] },
  asl: { difficulty: 1, canGetPb: true, traits: ['hasCssFile', 'noJoiningScript', 'css:words'] },
  rot13: { difficulty: 1, canGetPb: true, traits: [] },
  no_quit: { difficulty: 0, canGetPb: true, traits: [] },
};

export const FUNBOX_NAMES: readonly string[] = Object.keys(FUNBOXES);

export function isFunboxName(name: unknown): name is string {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(FUNBOXES, name);
}
