import { isTestTooShort, type TooShortInput } from './too-short';

const custom = (mode: string, value: number) => ({ limit: { mode, value } });

describe('isTestTooShort', () => {
  it.each<[string, TooShortInput, boolean]>([
    ['time 15', { mode: 'time', mode2: '15', testDuration: 15, bailedOut: false }, false],
    ['time 14', { mode: 'time', mode2: '14', testDuration: 14, bailedOut: false }, true],
    ['time 1', { mode: 'time', mode2: '1', testDuration: 1, bailedOut: false }, true],
    ['infinite time, 14.9 s', { mode: 'time', mode2: '0', testDuration: 14.9, bailedOut: false }, true],
    ['infinite time, 15 s', { mode: 'time', mode2: '0', testDuration: 15, bailedOut: false }, false],
    ['time 60 abandoned after 14 s', { mode: 'time', mode2: '60', testDuration: 14, bailedOut: true }, true],
    ['time 60 abandoned after 20 s', { mode: 'time', mode2: '60', testDuration: 20, bailedOut: true }, false],
    ['words 10', { mode: 'words', mode2: '10', testDuration: 3, bailedOut: false }, false],
    ['words 9', { mode: 'words', mode2: '9', testDuration: 30, bailedOut: false }, true],
    ['infinite words, 10 s', { mode: 'words', mode2: '0', testDuration: 10, bailedOut: false }, true],
    ['infinite words, 16 s', { mode: 'words', mode2: '0', testDuration: 16, bailedOut: false }, false],
    ['words 50 abandoned after 5 s', { mode: 'words', mode2: '50', testDuration: 5, bailedOut: true }, true],
    [
      'custom without custom text',
      { mode: 'custom', mode2: 'custom', testDuration: 60, bailedOut: false },
      true,
    ],
    [
      'custom, 10 words',
      { mode: 'custom', mode2: 'custom', testDuration: 5, bailedOut: false, customText: custom('word', 10) },
      false,
    ],
    [
      'custom, 9 words',
      { mode: 'custom', mode2: 'custom', testDuration: 60, bailedOut: false, customText: custom('word', 9) },
      true,
    ],
    [
      'custom, 9 sections',
      {
        mode: 'custom',
        mode2: 'custom',
        testDuration: 60,
        bailedOut: false,
        customText: custom('section', 9),
      },
      true,
    ],
    [
      'custom, 14 s',
      { mode: 'custom', mode2: 'custom', testDuration: 60, bailedOut: false, customText: custom('time', 14) },
      true,
    ],
    [
      'custom, 15 s',
      { mode: 'custom', mode2: 'custom', testDuration: 15, bailedOut: false, customText: custom('time', 15) },
      false,
    ],
    [
      'custom abandoned after 10 s',
      { mode: 'custom', mode2: 'custom', testDuration: 10, bailedOut: true, customText: custom('word', 100) },
      true,
    ],
    ['zen 14 s', { mode: 'zen', mode2: 'zen', testDuration: 14, bailedOut: false }, true],
    ['zen 15 s', { mode: 'zen', mode2: 'zen', testDuration: 15, bailedOut: false }, false],
    ['quote, 2 s', { mode: 'quote', mode2: '123', testDuration: 2, bailedOut: true }, false],
  ])('%s → %p', (_label, input, expected) => {
    expect(isTestTooShort(input)).toBe(expected);
  });
});
