import { resultHash } from '../../src/modules/results/domain/result-hash';
import { humanResult } from '../../generators/human-results';
import { Random, type TypingMode } from '../../generators/human-typing';

// The seeded source and the human-typing generator are the tests' (generators/human-typing.ts): the benchmark
// submits the same consistent bodies the anti-cheat accepts from the original client.
export { Random };

const round2 = (n: number) => Math.round(n * 100) / 100;
const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

// What people take (the seeded histories use the same mix): mostly timed tests, english.
const TESTS: readonly (readonly [{ mode: TypingMode; mode2: string }, number])[] = [
  [{ mode: 'time', mode2: '15' }, 0.3],
  [{ mode: 'time', mode2: '30' }, 0.12],
  [{ mode: 'time', mode2: '60' }, 0.2],
  [{ mode: 'words', mode2: '10' }, 0.06],
  [{ mode: 'words', mode2: '25' }, 0.14],
  [{ mode: 'words', mode2: '50' }, 0.05],
  [{ mode: 'quote', mode2: 'quote' }, 0.13],
];
const LANGUAGES: readonly (readonly [string, number])[] = [
  ['english', 0.8],
  ['english_1k', 0.06],
  ['german', 0.04],
  ['spanish', 0.04],
  ['french', 0.03],
  ['portuguese', 0.03],
];

/**
 * A completed test exactly as the original client sends it to `POST /results`: every field it sends, measured from a
 * typed keystroke timeline (one key timing per keystroke, one chart point per second, so bodies are 2-10 KB, as in
 * production, and consistent: the anti-cheat accepts them), the caller's uid, and the object hash the server checks.
 * Accuracy stays at 80 or more (the server refuses less from users on the boards).
 */
export function clientResult(rng: Random, uid: string, clientTime: number): Record<string, unknown> {
  const test = rng.pick(TESTS);
  const wpm = round2(clamp(rng.normal(78, 22), 20, 180));
  const result = humanResult(rng, { wpm, mode: test.mode, mode2: test.mode2, language: rng.pick(LANGUAGES) });
  const restarts = rng.next() < 0.3 ? rng.int(1, 4) : 0;
  const incompleteTests = Array.from({ length: restarts }, () => ({
    acc: round2(clamp(rng.normal(90, 6), 0, 100)),
    seconds: round2(rng.next() * 6),
  }));
  Object.assign(result, {
    timestamp: clientTime,
    restartCount: restarts,
    incompleteTests,
    incompleteTestSeconds: round2(incompleteTests.reduce((sum, t) => sum + t.seconds, 0)),
    punctuation: rng.next() < 0.08,
    uid,
  });
  return { ...result, hash: resultHash(result) };
}

/** The request body: `{ "result": ... }`. */
export function submitBody(rng: Random, uid: string, clientTime: number): string {
  return JSON.stringify({ result: clientResult(rng, uid, clientTime) });
}
