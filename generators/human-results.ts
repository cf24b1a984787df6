import { drawTypist, planFor, Random, tooLong, typeTest, type TypingMode } from './human-typing';

/**
 * The generated corpus of human typing: typists and tests drawn at random (generators/human-typing.ts types them
 * out). The anti-cheat must accept every one (src/modules/results/domain/anti-cheat/genuine-results.spec.ts); the
 * benchmark submits them too.
 */

const TESTS: readonly (readonly [{ mode: TypingMode; mode2: string }, number])[] = [
  [{ mode: 'time', mode2: '15' }, 0.2],
  [{ mode: 'time', mode2: '30' }, 0.1],
  [{ mode: 'time', mode2: '60' }, 0.15],
  [{ mode: 'time', mode2: '120' }, 0.03],
  [{ mode: 'words', mode2: '10' }, 0.08],
  [{ mode: 'words', mode2: '25' }, 0.1],
  [{ mode: 'words', mode2: '50' }, 0.06],
  [{ mode: 'words', mode2: '100' }, 0.03],
  [{ mode: 'quote', mode2: 'quote' }, 0.13],
  [{ mode: 'zen', mode2: 'zen' }, 0.08],
  [{ mode: 'custom', mode2: 'custom' }, 0.04],
];

/**
 * A human result as the original client sends it (every field but `uid` and `hash`): a typist and a test drawn at
 * random, at 40-200 wpm, accuracy mostly above 90 with a few mistakes left in, over time, words, quote, zen and
 * custom tests. `wpm` fixes the speed when given.
 */
export function humanResult(
  rng: Random,
  options: { wpm?: number; mode?: TypingMode; mode2?: string; language?: string } = {},
): Record<string, unknown> {
  const test = options.mode
    ? {
        mode: options.mode,
        mode2:
          options.mode2 ?? (TESTS.find(([t]) => t.mode === options.mode) as (typeof TESTS)[number])[0].mode2,
      }
    : rng.pick(TESTS);
  const typist = drawTypist(rng);
  const wpm = options.wpm ?? 40 + rng.next() * 160;
  const acc = Math.max(80, 100 - Math.abs(rng.normal(0, 4)));
  const words = test.mode === 'words' ? Number(test.mode2) : test.mode === 'custom' ? rng.int(10, 60) : 0;
  const seconds =
    test.mode === 'time'
      ? Number(test.mode2) + rng.next() * 0.025
      : test.mode === 'quote'
        ? (rng.int(100, 500) * 12) / wpm
        : test.mode === 'zen'
          ? 15 + rng.next() * 60
          : (words * 5.8 * 12) / wpm;
  const leftWrong = rng.next() < 0.15;
  const plan = planFor({
    mode: test.mode,
    mode2: test.mode === 'quote' ? String(rng.int(1, 7000)) : test.mode2,
    durationMs: test.mode === 'custom' ? Math.round(seconds * 10000) / 10 : Math.round(seconds * 100) * 10,
    wpm,
    rawWpm: leftWrong ? wpm * (1 + rng.next() * 0.04) : wpm,
    acc: leftWrong ? Math.min(acc, 99) : acc,
  });
  // Slow typists pause now and then on their own: the afk seconds follow from the timeline.
  const typed = typeTest(rng, typist, plan);
  const result: Record<string, unknown> = {
    ...typed,
    mode: test.mode,
    mode2: plan.mode2,
    language:
      options.language ??
      rng.pick([
        ['english', 0.8],
        ['english_1k', 0.08],
        ['german', 0.04],
        ['spanish', 0.04],
        ['french', 0.04],
      ] as const),
    timestamp: 1_795_000_000_000 + rng.int(0, 1e9),
    punctuation: false,
    numbers: false,
    lazyMode: false,
    blindMode: false,
    bailedOut: false,
    stopOnLetter: false,
    difficulty: 'normal',
    funbox: [],
    tags: [],
    restartCount: 0,
    incompleteTests: [],
    incompleteTestSeconds: 0,
  };
  tooLong(result);
  if (test.mode === 'quote') result.quoteLength = rng.int(0, 3);
  if (test.mode === 'custom') {
    result.customText = {
      textLen: words,
      mode: 'random',
      pipeDelimiter: false,
      limit: { mode: 'word', value: words },
    };
  }
  return result;
}
