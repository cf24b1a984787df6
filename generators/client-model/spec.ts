import type { Random } from '../human-typing';
import type { Difficulty, StopOnError } from './client';
import type { CustomLimitMode, TestMode } from './event-log';
import { LANGUAGES } from './languages';
import { EMULATING_FUNBOXES, LOOK_FUNBOXES, TEXT_FUNBOXES } from './text';
import type { TypistProfile } from './typist';

/**
 * Everything drawn for one typing session, before it is played: the test as configured on the client (mode, length,
 * language, punctuation, numbers, funboxes, stop on error, difficulty, blind and lazy mode), who types it (the
 * typist's timing and habits), when zen or an abandoned test ends, and how many tests were restarted before it.
 * Plain data, printed with a failing seed; any field can be fixed by the caller (the property tests do).
 */
export interface SessionSpec {
  mode: TestMode;
  /** time: seconds; words: count; 0 for an infinite test (abandoned with shift+Enter twice). */
  length: number;
  quote?: { id: number; group: number };
  custom?: {
    limit: CustomLimitMode;
    value: number;
    textMode: 'repeat' | 'random' | 'shuffle';
    textLen: number;
  };
  /** A key of LANGUAGES, and the name the client reports. */
  languageModel: string;
  language: string;
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
  blindMode: boolean;
  stopOnError: StopOnError;
  difficulty: Difficulty;
  funbox: string[];
  /** A keyboard layout the client emulates (characters inserted on the key press). */
  emulatedLayout: boolean;
  tags: string[];
  restarts: number;
  /** Zen and abandoned tests: when the typist ends them, ms after the start. */
  endAtMs?: number;
  profile: TypistProfile;
}

type Weighted<T> = readonly (readonly [T, number])[];

const MODES: Weighted<TestMode> = [
  ['time', 0.38],
  ['words', 0.25],
  ['quote', 0.15],
  ['zen', 0.08],
  ['custom', 0.14],
];
const TIME_LENGTHS: Weighted<number> = [
  [15, 0.33],
  [30, 0.25],
  [60, 0.25],
  [120, 0.1],
  [0, 0.07],
];
const WORD_LENGTHS: Weighted<number> = [
  [10, 0.3],
  [25, 0.3],
  [50, 0.2],
  [100, 0.13],
  [0, 0.05],
  [1000, 0.02],
];
const LANGUAGE_WEIGHTS: Weighted<string> = [
  ['english', 0.62],
  ['german', 0.05],
  ['french', 0.05],
  ['spanish', 0.05],
  ['portuguese', 0.03],
  ['russian', 0.05],
  ['greek', 0.03],
  ['hebrew', 0.02],
  ['korean', 0.04],
  ['japanese', 0.03],
  ['chinese', 0.03],
];
/** Funboxes the client does not allow in an infinite test. */
const NO_INFINITE = new Set(['layoutfluid', 'plus_one', 'plus_two', 'memory']);
/** The page element a funbox restyles: the client allows one funbox per element. */
const CSS_TARGET: Record<string, string> = {
  mirror: 'main',
  upside_down: 'main',
  nausea: 'typingTest',
  round_round_baby: 'typingTest',
  choo_choo: 'words',
  earthquake: 'words',
  space_balls: 'body',
  crt: 'body',
  backwards: 'words',
};
/** Settings a funbox forces (the client's `frontendForcedConfig`): these keep punctuation and numbers off. */
const NO_PUNCTUATION = new Set(['ascii', 'specials']);
const NO_NUMBERS = new Set(['58008', 'ascii', 'specials']);
/** Text funboxes that ignore the keyboard layout (not with a funbox that changes it). */
const IGNORES_LAYOUT = new Set(['58008', 'binary', 'hexadecimal', 'underscore_spaces']);

const clamp = (v: number, min: number, max: number) => Math.min(max, Math.max(min, v));

export function drawProfile(rng: Random, phone = false): TypistProfile {
  const band = rng.pick<[number, number]>([
    [[20, 40], 0.1],
    [[40, 110], 0.55],
    [[110, 160], 0.25],
    [[160, 220], 0.1],
  ]);
  const wpm = phone ? 25 + rng.next() * 55 : band[0] + rng.next() * (band[1] - band[0]);
  return {
    wpm,
    intervalCv: clamp(rng.normal(0.5, 0.09), 0.35, 0.7),
    holdMeanMs: clamp(rng.normal(105, 18), 70, 150),
    holdCv: clamp(rng.normal(0.3, 0.05), 0.2, 0.45),
    hesitation: rng.next() * 0.04,
    slipRate: clamp(rng.lognormal(0.025, 0.7), 0.002, 0.09),
    fixRate: clamp(rng.normal(0.8, 0.15), 0.3, 1),
    lateFix: rng.next() * 0.3,
    clearFix: rng.next() * 0.2,
    afkPerMinute: rng.next() < 0.85 ? 0 : 0.2 + rng.next() * 1.8,
    device: phone ? 'phone' : 'keyboard',
    suggestionRate: phone ? rng.next() * 0.4 : 0,
    deadKeys: !phone && rng.next() < 0.5,
  };
}

function drawFunbox(rng: Random, keysLanguage: boolean, infinite: boolean): string[] {
  const roll = rng.next();
  if (!keysLanguage || infinite || roll < 0.8) return [];
  const text = () => TEXT_FUNBOXES[rng.int(0, TEXT_FUNBOXES.length - 1)]!;
  const look = () => LOOK_FUNBOXES[rng.int(0, LOOK_FUNBOXES.length - 1)]!;
  if (roll < 0.9) return [text()];
  if (roll < 0.97) return [look()];
  const pair = [look(), text()];
  const [l, t] = pair as [string, string];
  const conflict =
    (l.startsWith('plus_') && (t === 'nospace' || t === 'underscore_spaces')) ||
    (l === 'layoutfluid' && IGNORES_LAYOUT.has(t)) ||
    (CSS_TARGET[l] !== undefined && CSS_TARGET[l] === CSS_TARGET[t]);
  return conflict ? [l] : pair;
}

export function drawSpec(rng: Random, fixed: Partial<SessionSpec> = {}): SessionSpec {
  const mode = fixed.mode ?? rng.pick(MODES);
  const languageModel = fixed.languageModel ?? rng.pick(LANGUAGE_WEIGHTS);
  const model = LANGUAGES[languageModel]!;
  const keysLanguage = model.typing === 'keys';
  const phone = keysLanguage && rng.next() < 0.06;
  let length = 0;
  let quote: SessionSpec['quote'];
  let custom: SessionSpec['custom'];
  const finite = (fixed.funbox ?? []).some((f) => NO_INFINITE.has(f));
  if (mode === 'time') length = fixed.length ?? (rng.pick(TIME_LENGTHS) || (finite ? 30 : 0));
  else if (mode === 'words') length = fixed.length ?? (rng.pick(WORD_LENGTHS) || (finite ? 25 : 0));
  else if (mode === 'quote')
    quote = {
      id: rng.int(1, 8000),
      group: rng.pick([
        [0, 0.4],
        [1, 0.4],
        [2, 0.15],
        [3, 0.05],
      ] as const),
    };
  else if (mode === 'custom') {
    const limit = rng.pick<CustomLimitMode>([
      ['word', 0.55],
      ['section', 0.2],
      ['time', 0.25],
    ]);
    const value =
      limit === 'time'
        ? rng.pick([
            [15, 0.25],
            [30, 0.3],
            [60, 0.25],
            [90, 0.1],
            [150, 0.06],
            [200, 0.04],
          ] as const)
        : rng.int(10, limit === 'word' ? 100 : 30);
    custom = {
      limit,
      value,
      textMode: rng.pick([
        ['random', 0.5],
        ['repeat', 0.3],
        ['shuffle', 0.2],
      ] as const),
      textLen: rng.int(10, 60),
    };
  }
  const infinite = (mode === 'time' || mode === 'words') && (length === 0 || length >= 900);
  // (Zen takes no funbox here: with a nospace one its words would end only with Enter, which the typist does not do.
  // Memory is for word, quote and custom tests only.)
  const funbox = (mode === 'zen' ? [] : (fixed.funbox ?? drawFunbox(rng, keysLanguage, infinite))).filter(
    (f) => f !== 'memory' || mode === 'words' || mode === 'quote' || mode === 'custom',
  );
  const accented = ['german', 'french', 'spanish', 'portuguese', 'greek'].includes(languageModel);
  const untimedEnd =
    mode === 'zen'
      ? 15_000 + rng.next() * (rng.next() < 0.9 ? 90_000 : 200_000)
      : infinite
        ? 15_500 + rng.next() * (rng.next() < 0.8 ? 75_000 : 200_000)
        : undefined;
  const profile = fixed.profile ?? drawProfile(rng, phone);
  const spec: SessionSpec = {
    mode,
    length,
    quote,
    custom,
    languageModel,
    language: model.names[rng.int(0, model.names.length - 1)]!,
    punctuation: keysLanguage && mode !== 'zen' && rng.next() < 0.15,
    numbers: keysLanguage && mode !== 'zen' && rng.next() < 0.1,
    lazyMode: accented && rng.next() < 0.1,
    blindMode: rng.next() < 0.03,
    stopOnError:
      mode === 'zen'
        ? 'off'
        : rng.pick<StopOnError>([
            ['off', 0.93],
            ['letter', 0.04],
            ['word', 0.03],
          ]),
    difficulty:
      mode === 'zen'
        ? 'normal'
        : rng.pick<Difficulty>([
            ['normal', 0.96],
            ['expert', 0.03],
            ['master', 0.01],
          ]),
    funbox,
    emulatedLayout:
      funbox.some((f) => EMULATING_FUNBOXES.has(f)) || (keysLanguage && !phone && rng.next() < 0.05),
    tags: rng.next() < 0.1 ? Array.from({ length: rng.int(1, 2) }, () => hexId(rng)) : [],
    restarts: rng.pick([
      [0, 0.8],
      [1, 0.12],
      [2, 0.05],
      [3, 0.03],
    ] as const),
    endAtMs: untimedEnd,
    profile,
  };
  const forced = {
    punctuation: (fixed.punctuation ?? spec.punctuation) && !funbox.some((f) => NO_PUNCTUATION.has(f)),
    numbers: (fixed.numbers ?? spec.numbers) && !funbox.some((f) => NO_NUMBERS.has(f)),
  };
  return { ...spec, ...fixed, ...forced, length, funbox, endAtMs: untimedEnd, profile };
}

function hexId(rng: Random): string {
  return Array.from({ length: 24 }, () => '0123456789abcdef'[rng.int(0, 15)]).join('');
}
