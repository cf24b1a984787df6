import { resultHash } from '../../src/modules/results/domain/result-hash';

/** A seeded pseudo-random source, so a run's bodies are reproducible. */
export class Random {
  constructor(private state: number) {}

  next(): number {
    // mulberry32
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  normal(mean: number, sd: number): number {
    const u = 1 - this.next();
    return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(weighted: readonly (readonly [T, number])[]): T {
    let roll = this.next();
    for (const [value, weight] of weighted) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return (weighted[weighted.length - 1] as readonly [T, number])[0];
  }
}

const MAX_CHART_POINTS = 122;
const round2 = (n: number) => Math.round(n * 100) / 100;
const clamp = (n: number, min: number, max: number) => Math.max(min, Math.min(max, n));

// What people take (the seeded histories use the same mix): mostly timed tests, english.
const TESTS: readonly (readonly [{ mode: string; mode2: string }, number])[] = [
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

function timings(rng: Random, count: number, mean: number, sd: number): number[] {
  const list = new Array<number>(count);
  for (let i = 0; i < count; i++) list[i] = round2(clamp(rng.normal(mean, sd), 5, 2000));
  return list;
}

/**
 * A completed test exactly as the original client sends it to `POST /results`: every field it sends, one key timing
 * per keystroke and one chart point per second (so bodies are 2-10 KB, as in production), the caller's uid, and the
 * object hash the server checks. Accuracy stays at 80 or more (the server refuses less from users on the boards).
 */
export function clientResult(rng: Random, uid: string, clientTime: number): Record<string, unknown> {
  const test = rng.pick(TESTS);
  const wpm = round2(clamp(rng.normal(78, 22), 20, 180));
  const seconds =
    test.mode === 'time'
      ? Number(test.mode2)
      : test.mode === 'words'
        ? (Number(test.mode2) * 60) / wpm
        : 15 + rng.next() * 60;
  const testDuration = round2(seconds + rng.next() * 0.05);
  const chars = Math.max(10, Math.round((wpm * 5 * testDuration) / 60));
  const incorrect = rng.int(0, Math.ceil(chars * 0.04));
  const points = Math.max(1, Math.round(testDuration));
  const acc = round2(clamp(100 - (incorrect / chars) * 100 - rng.next() * 2, 80, 100));
  const restarts = rng.next() < 0.3 ? rng.int(1, 4) : 0;
  const incompleteTests = Array.from({ length: restarts }, () => ({
    acc: round2(clamp(rng.normal(90, 6), 0, 100)),
    seconds: round2(rng.next() * 6),
  }));
  const result: Record<string, unknown> = {
    wpm,
    rawWpm: round2(wpm * (1 + rng.next() * 0.06)),
    charStats: [chars - incorrect, incorrect, rng.int(0, 1), rng.int(0, 1)],
    charTotal: chars,
    acc,
    mode: test.mode,
    mode2: test.mode === 'quote' ? String(rng.int(1, 6000)) : test.mode2,
    quoteLength: test.mode === 'quote' ? rng.int(0, 3) : -1,
    timestamp: clientTime,
    testDuration,
    consistency: round2(clamp(rng.normal(74, 8), 0, 100)),
    keyConsistency: round2(clamp(rng.normal(68, 9), 0, 100)),
    wpmConsistency: round2(clamp(rng.normal(80, 7), 0, 100)),
    // The client keeps one point per second up to 122, and sends "toolong" beyond.
    chartData:
      points > MAX_CHART_POINTS
        ? 'toolong'
        : {
            wpm: timings(rng, points, wpm, 8),
            burst: timings(rng, points, wpm, 15).map(Math.round),
            err: Array.from({ length: points }, () => (rng.next() < 0.1 ? 1 : 0)),
          },
    restartCount: restarts,
    incompleteTests,
    incompleteTestSeconds: round2(incompleteTests.reduce((sum, t) => sum + t.seconds, 0)),
    afkDuration: rng.next() < 0.1 ? round2(rng.next() * 2) : 0,
    tags: [],
    bailedOut: false,
    blindMode: false,
    lazyMode: false,
    stopOnLetter: false,
    funbox: [],
    language: rng.pick(LANGUAGES),
    difficulty: 'normal',
    numbers: false,
    punctuation: rng.next() < 0.08,
    keySpacing: timings(rng, chars, 12000 / wpm, 40),
    keyDuration: timings(rng, chars, 90, 25),
    keyOverlap: round2(rng.next() * 20),
    lastKeyToEnd: round2(rng.next() * 50),
    startToFirstKey: round2(rng.next() * 300),
    uid,
  };
  // The original client sends quoteLength only for quotes.
  if (result.quoteLength === -1) delete result.quoteLength;
  return { ...result, hash: resultHash(result) };
}

/** The request body: `{ "result": ... }`. */
export function submitBody(rng: Random, uid: string, clientTime: number): string {
  return JSON.stringify({ result: clientResult(rng, uid, clientTime) });
}
