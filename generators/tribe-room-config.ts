/**
 * The room config the original Tribe client sends (`getTribeConfig()`: the keys its config metadata marks
 * `tribeBlocked`, plus its custom text), with the client's defaults.
 */
export function clientRoomConfig(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    punctuation: false,
    numbers: false,
    words: 50,
    time: 30,
    mode: 'time',
    quoteLength: [1],
    language: 'english',
    difficulty: 'normal',
    minWpm: 'off',
    minWpmCustomSpeed: 100,
    minAcc: 'off',
    minAccCustom: 90,
    minBurst: 'off',
    minBurstCustomSpeed: 100,
    funbox: [],
    customLayoutfluid: ['qwerty', 'dvorak', 'colemak'],
    customPolyglot: ['english', 'spanish', 'french', 'german'],
    strictSpace: false,
    stopOnError: 'off',
    lazyMode: false,
    customText: {
      text: ['The', 'quick', 'brown', 'fox', 'jumps', 'over', 'the', 'lazy', 'dog'],
      mode: 'repeat',
      pipeDelimiter: false,
      limit: { value: 9, mode: 'word' },
    },
    ...overrides,
  };
}
