import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { LANGUAGES } from '../../common/languages';
import { IsLanguage } from '../../common/validation/is-language';
import { FUNBOX_NAMES, LAYOUT_NAMES, THEME_NAMES } from './config-names';

/**
 * The user configuration (contract facts §12.11): every key the original client stores, its rules and its client
 * default. One table drives the defaults of `GET /configs`, the `PATCH /configs` body and the `config` of presets,
 * so the three never drift apart.
 */
interface ConfigKey {
  default: unknown;
  rules: PropertyDecorator[];
}

const FINITE = { allowNaN: false, allowInfinity: false };

const bool = (def: boolean): ConfigKey => ({ default: def, rules: [IsBoolean()] });
const int = (def: number, min: number): ConfigKey => ({ default: def, rules: [IsInt(), Min(min)] });
const num = (def: number, min?: number, max?: number): ConfigKey => ({
  default: def,
  rules: [
    IsNumber(FINITE),
    ...(min === undefined ? [] : [Min(min)]),
    ...(max === undefined ? [] : [Max(max)]),
  ],
});
const oneOf = <T extends string | number>(values: readonly T[], def: T, message?: string): ConfigKey => ({
  default: def,
  rules: [IsIn([...values], message ? { message } : undefined)],
});
const listOf = (
  values: readonly (string | number)[],
  def: unknown[],
  size: { min?: number; max?: number },
  message?: string,
): ConfigKey => ({
  default: def,
  rules: [
    IsArray(),
    ...(size.min === undefined ? [] : [ArrayMinSize(size.min)]),
    ...(size.max === undefined ? [] : [ArrayMaxSize(size.max)]),
    IsIn([...values], { each: true, ...(message ? { message } : {}) }),
  ],
});
const digits = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

const satisfies = (name: string, test: (value: unknown) => boolean, message: string): PropertyDecorator =>
  ValidateBy({ name, validator: { validate: test, defaultMessage: () => message } });

const MODES = ['time', 'words', 'quote', 'custom', 'zen'] as const;
const CARET_STYLES = [
  'off',
  'default',
  'block',
  'outline',
  'underline',
  'carrot',
  'banana',
  'monkey',
] as const;
const LIVE_STYLES = ['off', 'text', 'mini'] as const;
const KNOWN_THEME = 'must be a known theme';
const KNOWN_LAYOUT = 'must be a known layout';
const HEX_COLOR = /^#([\da-f]{3}){1,2}$/i;
// The original's background rule: an http(s) image URL without quotes (it ends up inside CSS `url(...)`).
const BACKGROUND_URL = /^https?:\/\/[^"'`\s]+\.(png|gif|jpeg|jpg|webp)([?#][^"'`\s]*)?$/i;

export const CONFIG_SCHEMA = {
  // test
  punctuation: bool(false),
  numbers: bool(false),
  words: int(50, 0),
  time: int(30, 0),
  mode: oneOf(MODES, 'time'),
  quoteLength: listOf([-3, -2, 0, 1, 2, 3], [1], {}),
  language: { default: 'english', rules: [IsLanguage()] },
  burstHeatmap: bool(false),
  // behaviour
  difficulty: oneOf(['normal', 'expert', 'master'], 'normal'),
  quickRestart: oneOf(['off', 'esc', 'tab', 'enter'], 'off'),
  repeatQuotes: oneOf(['off', 'typing'], 'off'),
  resultSaving: bool(true),
  blindMode: bool(false),
  alwaysShowWordsHistory: bool(false),
  singleListCommandLine: oneOf(['manual', 'on'], 'on'),
  minWpm: oneOf(['off', 'custom'], 'off'),
  minWpmCustomSpeed: num(100, 0),
  minAcc: oneOf(['off', 'custom'], 'off'),
  minAccCustom: num(90, 0, 100),
  minBurst: oneOf(['off', 'fixed', 'flex'], 'off'),
  minBurstCustomSpeed: num(100, 0),
  britishEnglish: bool(false),
  funbox: listOf(FUNBOX_NAMES, [], { max: 15 }, 'must contain only known funboxes'),
  customLayoutfluid: listOf(
    LAYOUT_NAMES,
    ['qwerty', 'dvorak', 'colemak'],
    { min: 2, max: 15 },
    'must contain only known layouts',
  ),
  customPolyglot: listOf(
    LANGUAGES,
    ['english', 'spanish', 'french', 'german'],
    { min: 2 },
    'must contain only supported languages',
  ),
  // input
  freedomMode: bool(false),
  strictSpace: bool(false),
  oppositeShiftMode: oneOf(['off', 'on', 'keymap'], 'off'),
  stopOnError: oneOf(['off', 'word', 'letter'], 'off'),
  confidenceMode: oneOf(['off', 'on', 'max'], 'off'),
  quickEnd: bool(false),
  indicateTypos: oneOf(['off', 'below', 'replace', 'both'], 'off'),
  compositionDisplay: oneOf(['off', 'below', 'replace'], 'replace'),
  hideExtraLetters: bool(false),
  lazyMode: bool(false),
  layout: oneOf(['default', ...LAYOUT_NAMES], 'default', KNOWN_LAYOUT),
  codeUnindentOnBackspace: bool(false),
  deleteOnError: oneOf(['off', 'letter', 'letter_hard', 'word', 'word_hard'], 'off'),
  // sound
  soundVolume: num(0.5, 0, 1),
  playSoundOnClick: oneOf(['off', ...digits(1, 26)], 'off'),
  playSoundOnError: oneOf(['off', ...digits(1, 4)], 'off'),
  playTimeWarning: oneOf(['off', '1', '3', '5', '10'], 'off'),
  // caret
  smoothCaret: oneOf(['off', 'slow', 'medium', 'fast'], 'medium'),
  caretStyle: oneOf(CARET_STYLES, 'default'),
  paceCaret: oneOf(['off', 'average', 'pb', 'tagPb', 'last', 'custom', 'daily'], 'off'),
  paceCaretCustomSpeed: num(100, 0),
  paceCaretStyle: oneOf(CARET_STYLES, 'default'),
  repeatedPace: bool(true),
  // appearance
  timerStyle: oneOf(['off', 'bar', 'text', 'mini', 'flash_text', 'flash_mini'], 'mini'),
  liveSpeedStyle: oneOf(LIVE_STYLES, 'off'),
  liveAccStyle: oneOf(LIVE_STYLES, 'off'),
  liveBurstStyle: oneOf(LIVE_STYLES, 'off'),
  timerColor: oneOf(['black', 'sub', 'text', 'main'], 'main'),
  timerOpacity: oneOf(['0.25', '0.5', '0.75', '1'], '1'),
  highlightMode: oneOf(
    ['off', 'letter', 'word', 'next_word', 'next_two_words', 'next_three_words'],
    'letter',
  ),
  typedEffect: oneOf(['keep', 'hide', 'fade', 'dots'], 'keep'),
  tapeMode: oneOf(['off', 'letter', 'word'], 'off'),
  tapeMargin: num(50, 10, 90),
  smoothLineScroll: bool(false),
  showAllLines: bool(false),
  alwaysShowDecimalPlaces: bool(false),
  typingSpeedUnit: oneOf(['wpm', 'cpm', 'wps', 'cps', 'wph'], 'wpm'),
  startGraphsAtZero: bool(true),
  maxLineWidth: {
    default: 0,
    rules: [
      IsNumber(FINITE),
      satisfies(
        'maxLineWidth',
        (v) => typeof v === 'number' && (v === 0 || (v >= 20 && v <= 1000)),
        'must be 0 or between 20 and 1000',
      ),
    ],
  },
  fontSize: {
    default: 2,
    rules: [
      IsNumber(FINITE),
      satisfies('positive', (v) => typeof v === 'number' && v > 0, 'must be positive'),
    ],
  },
  fontFamily: {
    default: 'Roboto_Mono',
    rules: [IsString(), MaxLength(50), Matches(/^[a-zA-Z0-9_\-+.]+$/, { message: 'must be a font name' })],
  },
  keymapMode: oneOf(['off', 'static', 'react', 'next'], 'off'),
  keymapLayout: oneOf(['overrideSync', ...LAYOUT_NAMES], 'overrideSync', KNOWN_LAYOUT),
  keymapStyle: oneOf(
    ['staggered', 'alice', 'matrix', 'split', 'split_matrix', 'steno', 'steno_matrix'],
    'staggered',
  ),
  keymapLegendStyle: oneOf(['lowercase', 'uppercase', 'blank', 'dynamic'], 'lowercase'),
  keymapKeys: oneOf(['minimal', 'minimal_numrow', 'full'], 'minimal'),
  keymapSize: {
    default: 1,
    rules: [
      IsNumber(FINITE),
      Min(0.5),
      Max(3.5),
      // Step 0.1, compared on tenths so 1.3 (binary 1.2999…) passes.
      satisfies(
        'step',
        (v) => typeof v === 'number' && Math.abs(v * 10 - Math.round(v * 10)) < 1e-9,
        'must be a multiple of 0.1',
      ),
    ],
  },
  // theme
  flipTestColors: bool(false),
  colorfulMode: bool(false),
  customBackground: {
    default: '',
    rules: [
      IsString(),
      MaxLength(2048),
      satisfies(
        'backgroundUrl',
        (v) => v === '' || (typeof v === 'string' && BACKGROUND_URL.test(v)),
        'must be empty or an http(s) URL of a png, gif, jpeg, jpg or webp image',
      ),
    ],
  },
  customBackgroundSize: oneOf(['cover', 'contain', 'max'], 'cover'),
  customBackgroundFilter: {
    default: [0, 1, 1, 1],
    rules: [IsArray(), ArrayMinSize(4), ArrayMaxSize(4), IsNumber(FINITE, { each: true })],
  },
  autoSwitchTheme: bool(false),
  themeLight: oneOf(THEME_NAMES, 'serika', KNOWN_THEME),
  themeDark: oneOf(THEME_NAMES, 'serika_dark', KNOWN_THEME),
  randomTheme: oneOf(['off', 'on', 'fav', 'light', 'dark', 'custom', 'auto'], 'off'),
  favThemes: listOf(THEME_NAMES, [], {}, 'must contain only known themes'),
  theme: oneOf(THEME_NAMES, 'serika_dark', KNOWN_THEME),
  customTheme: bool(false),
  customThemeColors: {
    // serika_dark: bg, main, caret, sub, subAlt, text, error, errorExtra, colorfulError, colorfulErrorExtra.
    default: [
      '#323437',
      '#e2b714',
      '#e2b714',
      '#646669',
      '#2c2e31',
      '#d1d0c5',
      '#ca4754',
      '#7e2a33',
      '#ca4754',
      '#7e2a33',
    ],
    rules: [
      IsArray(),
      ArrayMinSize(10),
      ArrayMaxSize(10),
      Matches(HEX_COLOR, { each: true, message: 'must contain only hex colors' }),
    ],
  },
  // hide elements
  showKeyTips: bool(true),
  showOutOfFocusWarning: bool(true),
  capsLockWarning: bool(true),
  showAverage: oneOf(['off', 'speed', 'acc', 'both'], 'off'),
  showPb: bool(false),
  // hidden
  accountChart: {
    default: ['on', 'on', 'on', 'on'],
    rules: [IsArray(), ArrayMinSize(4), ArrayMaxSize(4), IsIn(['on', 'off'], { each: true })],
  },
  monkey: bool(false),
  monkeyPowerLevel: oneOf(['off', ...digits(1, 4)], 'off'),
  // ads
  ads: oneOf(['off', 'result', 'on', 'sellout'], 'result'),
} satisfies Record<string, ConfigKey>;

export type ConfigKeyName = keyof typeof CONFIG_SCHEMA;
export type UserConfig = Record<string, unknown>;

export const CONFIG_KEYS: ReadonlySet<string> = new Set(Object.keys(CONFIG_SCHEMA));

/** The full configuration of a user who never saved one (the original client's defaults). */
export function defaultConfig(): UserConfig {
  return Object.fromEntries(
    Object.entries(CONFIG_SCHEMA).map(([key, spec]) => [key, structuredClone(spec.default)]),
  );
}

/**
 * A partial configuration as a class-validator DTO: every key optional, `null` refused (an absent key and a null
 * one differ), unknown keys refused by the strict pipe. Built from the table above.
 */
export class PartialConfigDto {
  [key: string]: unknown;
}

/** The key's schema in the API document, from its default (the Swagger plugin cannot see keys added at run time). */
function documented(def: unknown): ApiPropertyOptions {
  if (Array.isArray(def)) return { type: 'array', items: {}, default: def };
  const type =
    typeof def === 'boolean'
      ? Boolean
      : typeof def === 'number'
        ? Number
        : typeof def === 'string'
          ? String
          : Object;
  return { type, default: def };
}

for (const [key, spec] of Object.entries(CONFIG_SCHEMA) as [string, ConfigKey][]) {
  ValidateIf((object: Record<string, unknown>) => object[key] !== undefined)(PartialConfigDto.prototype, key);
  for (const rule of spec.rules) rule(PartialConfigDto.prototype, key);
  ApiPropertyOptional(documented(spec.default))(PartialConfigDto.prototype, key);
}

/** The given keys of a validated partial, as a plain object ready to store. */
export function toConfigPatch(dto: PartialConfigDto): UserConfig {
  return Object.fromEntries(
    Object.entries(dto).filter(([key, value]) => CONFIG_KEYS.has(key) && value !== undefined),
  );
}
