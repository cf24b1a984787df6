import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { formatValidationErrors } from '../../common/validation/validation.pipe';
import { CONFIG_SCHEMA, defaultConfig, PartialConfigDto, toConfigPatch } from './config-schema';

function problems(input: Record<string, unknown>): string[] {
  const instance = plainToInstance(PartialConfigDto, input);
  return formatValidationErrors(
    validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true }),
  );
}

describe('user configuration schema', () => {
  it('has the original client keys with their defaults', () => {
    const defaults = defaultConfig();
    expect(Object.keys(defaults)).toHaveLength(Object.keys(CONFIG_SCHEMA).length);
    expect(defaults).toMatchObject({
      mode: 'time',
      time: 30,
      words: 50,
      language: 'english',
      theme: 'serika_dark',
      themeLight: 'serika',
      quoteLength: [1],
      resultSaving: true,
      soundVolume: 0.5,
      fontFamily: 'Roboto_Mono',
      customBackgroundFilter: [0, 1, 1, 1],
      accountChart: ['on', 'on', 'on', 'on'],
      ads: 'result',
    });
    expect(defaults.customThemeColors).toHaveLength(10);
  });

  it('accepts its own defaults as a complete configuration', () => {
    expect(problems(defaultConfig())).toEqual([]);
  });

  it('hands out independent copies of the defaults', () => {
    (defaultConfig().funbox as string[]).push('mirror');
    expect(defaultConfig().funbox).toEqual([]);
  });

  it('accepts an empty partial', () => {
    expect(problems({})).toEqual([]);
  });

  it.each([
    [{ punctuation: 'yes' }, '"punctuation" must be a boolean value'],
    [{ time: 1.5 }, '"time" must be an integer number'],
    [{ words: -1 }, '"words" must not be less than 0'],
    [{ mode: 'mood' }, '"mode" must be one of the following values: time, words, quote, custom, zen'],
    [{ language: 'klingonese' }, '"language" must be a supported language'],
    [
      { quoteLength: [4] },
      '"quoteLength" each value in quoteLength must be one of the following values: -3, -2, 0, 1, 2, 3',
    ],
    [{ soundVolume: 1.5 }, '"soundVolume" must not be greater than 1'],
    [{ minAccCustom: -1 }, '"minAccCustom" must not be less than 0'],
    [{ theme: 'not_a_theme' }, '"theme" must be a known theme'],
    [{ layout: 'nolayout' }, '"layout" must be a known layout'],
    [{ funbox: ['nope'] }, '"funbox" must contain only known funboxes'],
    [{ customLayoutfluid: ['qwerty'] }, '"customLayoutfluid" must contain at least 2 elements'],
    [{ customPolyglot: ['english', 'elvish'] }, '"customPolyglot" must contain only supported languages'],
    [{ maxLineWidth: 10 }, '"maxLineWidth" must be 0 or between 20 and 1000'],
    [{ fontSize: 0 }, '"fontSize" must be positive'],
    [{ fontFamily: 'Comic Sans' }, '"fontFamily" must be a font name'],
    [{ keymapSize: 1.25 }, '"keymapSize" must be a multiple of 0.1'],
    [
      { customBackground: 'javascript:alert(1)' },
      expect.stringMatching(/^"customBackground" must be empty or/),
    ],
    [{ customBackgroundFilter: [0, 1, 1] }, '"customBackgroundFilter" must contain at least 4 elements'],
    [{ customThemeColors: Array(10).fill('red') }, '"customThemeColors" must contain only hex colors'],
    [{ accountChart: ['on', 'on', 'on', 'maybe'] }, expect.stringMatching(/^"accountChart" each value/)],
    [{ playSoundOnClick: '27' }, expect.stringMatching(/^"playSoundOnClick" must be one of/)],
    [{ timerOpacity: 0.5 }, expect.stringMatching(/^"timerOpacity" must be one of/)],
  ])('refuses %j', (input, expected) => {
    expect(problems(input)).toEqual(expect.arrayContaining([expected]));
  });

  it('refuses null for a key (absent and null differ)', () => {
    expect(problems({ punctuation: null })).toEqual(['"punctuation" must be a boolean value']);
  });

  it('refuses unknown keys', () => {
    expect(problems({ time: 60, wat: 1, alsoWat: 2 })).toEqual([
      "Unrecognized key(s) in object: 'wat', 'alsoWat'",
    ]);
  });

  it.each([
    { keymapSize: 1.3 },
    { maxLineWidth: 0 },
    { maxLineWidth: 20 },
    { customBackground: '' },
    { customBackground: 'https://example.com/bg.webp?size=large' },
    {
      customThemeColors: [
        '#fff',
        '#000000',
        '#abc',
        '#ABCDEF',
        '#123',
        '#456',
        '#789',
        '#0af',
        '#fa0',
        '#eee',
      ],
    },
    { quoteLength: [-3, -2, 0, 1, 2, 3] },
    { funbox: ['58008', 'mirror'] },
    { layout: 'default' },
    { keymapLayout: 'overrideSync' },
    { playSoundOnClick: '26' },
  ])('accepts %j', (input) => {
    expect(problems(input)).toEqual([]);
  });

  it('keeps only the given keys when turned into a patch', () => {
    const instance = plainToInstance(PartialConfigDto, { time: 60, mode: 'words' });
    expect(toConfigPatch(instance)).toEqual({ time: 60, mode: 'words' });
  });
});
