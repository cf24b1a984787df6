/**
 * Result bodies of human typing, consistent the way the original client's are: a keystroke timeline is drawn first
 * (inter-key intervals and hold times from lognormal distributions with a hesitation tail, the shape reported for
 * 136 million keystrokes by Dhakal et al., CHI 2018: right-skewed intervals with a within-typist spread of about half
 * their mean, holds around 100 ms), then every measurement is derived from it as the client derives them
 * (characters, wpm, raw, acc, keySpacing, keyDuration, the per-second chart, afk, consistency figures).
 *
 * Two users: the generated corpus (`humanResult` in human-results.ts, typists and tests drawn at random) and the test
 * factories (`clientResult` in test/e2e/results/result-factory.ts, the exact figures a test asks for, through
 * `planFor`). Shared by test/ and bench/ (the benchmark submits such bodies).
 */

// Math's functions held here: inside jest's vm context every access to a global (`Math.imul`) is a slow lookup on
// the context's global object, which made drawing numbers several times slower there than in Node.
const { imul, sqrt, log, cos, exp, floor, PI } = Math;

/** A seeded pseudo-random source (mulberry32), so generated bodies are reproducible. */
export class Random {
  constructor(private state: number) {}

  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = imul(t ^ (t >>> 15), t | 1);
    t ^= t + imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  normal(mean: number, sd: number): number {
    const u = 1 - this.next();
    return mean + sd * sqrt(-2 * log(u)) * cos(2 * PI * this.next());
  }

  /** Lognormal with the given mean and coefficient of variation. */
  lognormal(mean: number, cv: number): number {
    const sigma = sqrt(log(1 + cv * cv));
    return mean * exp(this.normal(-(sigma * sigma) / 2, sigma));
  }

  int(min: number, max: number): number {
    return min + floor(this.next() * (max - min + 1));
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

export type TypingMode = 'time' | 'words' | 'quote' | 'zen' | 'custom';

/** How one person types: spread of their key intervals, their key holds, how often they hesitate. */
export interface Typist {
  intervalCv: number;
  holdMeanMs: number;
  holdCv: number;
  hesitation: number;
}

/** What the test must come to: the counts and times the client would report. */
export interface TypingPlan {
  mode: TypingMode;
  mode2: string;
  bailedOut?: boolean;
  /** The reported test duration, ms (the client's duration, rounded to 10 ms except in custom mode). */
  durationMs: number;
  /** charStats[0]: characters of correct words, spaces included. */
  correctChars: number;
  /** charTotal: every character left in the input. */
  totalChars: number;
  /** charStats[1]: wrong characters left in the input (inside totalChars − correctChars). */
  incorrectChars: number;
  /** Wrong characters typed and corrected with backspace. */
  corrections: number;
  /** Whole seconds without a key (afkDuration), as pauses inside the test. */
  afkSeconds: number;
  /** Cap on one interval so no other second is idle (the factories want an exact afkDuration). */
  maxIntervalMs?: number;
}

/** The measurements of one typed test, named as the client sends them. */
export interface TypedTest {
  wpm: number;
  rawWpm: number;
  acc: number;
  charStats: [number, number, number, number];
  charTotal: number;
  testDuration: number;
  afkDuration: number;
  consistency: number;
  wpmConsistency: number;
  keyConsistency: number;
  chartData: { wpm: number[]; burst: number[]; err: number[] };
  keySpacing: number[];
  keyDuration: number[];
  keyOverlap: number;
  startToFirstKey: number;
  lastKeyToEnd: number;
}

const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;
const tenth = (n: number) => Math.round(n * 10) / 10;

/** The client's consistency figure (written from its formula, independently of the server's checks). */
function consistencyOf(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const sd = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  const c = sd / mean;
  const k = round2(100 * (1 - Math.tanh(c + c ** 3 / 3 + c ** 5 / 5)));
  return Number.isNaN(k) ? 0 : k;
}

interface Key {
  /** Inserts a character (a backspace or Enter does not). */
  insert: boolean;
  correct: boolean;
  /** The character counts for charStats[0] (part of a correct word). */
  correctWord: boolean;
  /** A pause (hesitation) or a reaction is expected before this key. */
  slow: number;
  at: number;
  hold: number;
}

/** The keys in order: each final character, a mistake and its backspace before some of them, Enter for zen. */
function keySequence(rng: Random, plan: TypingPlan): Key[] {
  const wrongWordChars = plan.totalChars - plan.correctChars;
  // Where the wrong words sit, and which of their characters are wrong.
  const wrongStart = wrongWordChars > 0 ? rng.int(0, plan.correctChars) : -1;
  const wrongAt = new Set<number>();
  while (wrongAt.size < Math.min(plan.incorrectChars, wrongWordChars)) {
    wrongAt.add(wrongStart + rng.int(0, wrongWordChars - 1));
  }
  const correctionAt = new Map<number, number>();
  for (let i = 0; i < plan.corrections; i++) {
    const at = rng.int(0, plan.totalChars - 1);
    correctionAt.set(at, (correctionAt.get(at) ?? 0) + 1);
  }
  const keys: Key[] = [];
  const key = (insert: boolean, correct: boolean, correctWord: boolean, slow: number) =>
    keys.push({ insert, correct, correctWord, slow, at: 0, hold: 0 });
  let wordLength = 0;
  for (let i = 0; i < plan.totalChars; i++) {
    for (let c = correctionAt.get(i) ?? 0; c > 0; c--) {
      key(true, false, false, 1);
      key(false, true, false, 1.6); // noticing the mistake takes a moment
    }
    const inWrongWord = wrongStart >= 0 && i >= wrongStart && i < wrongStart + wrongWordChars;
    // Words of 2 to 8 letters; the key before a new word comes a little later.
    const space = wordLength >= rng.int(2, 8);
    wordLength = space ? 0 : wordLength + 1;
    key(true, !wrongAt.has(i), !inWrongWord, space ? 1.25 : 1);
  }
  if (plan.mode === 'zen') key(false, true, false, 1.3); // shift+enter ends zen
  return keys;
}

/** Places the keys in time: intervals drawn, scaled to the span, pauses inserted for the afk seconds. */
function placeKeys(
  rng: Random,
  typist: Typist,
  keys: Key[],
  firstMs: number,
  lastMs: number,
  plan: TypingPlan,
) {
  const pauseMs = plan.afkSeconds * 1000;
  const span = lastMs - firstMs - pauseMs;
  const gaps: number[] = [];
  for (let i = 1; i < keys.length; i++) {
    let gap = rng.lognormal(1, typist.intervalCv) * (keys[i] as Key).slow;
    if (rng.next() < typist.hesitation) gap += -Math.log(1 - rng.next()) * 1.5;
    gaps.push(gap);
  }
  // Scale to the span; where a cap applies, clip and rescale the rest (a few rounds settle it).
  for (let round = 0; round < 8; round++) {
    const sum = gaps.reduce((a, b) => a + b, 0);
    const scale = sum === 0 ? 0 : span / sum;
    for (let i = 0; i < gaps.length; i++) gaps[i] = (gaps[i] as number) * scale;
    if (plan.maxIntervalMs === undefined || gaps.every((g) => g <= (plan.maxIntervalMs as number))) break;
    for (let i = 0; i < gaps.length; i++) gaps[i] = Math.min(gaps[i] as number, plan.maxIntervalMs * 0.95);
  }
  let at = firstMs;
  let paused = pauseMs === 0;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as Key;
    k.at = tenth(at);
    k.hold = tenth(Math.max(15, rng.lognormal(typist.holdMeanMs, typist.holdCv)));
    const gap = gaps[i] ?? 0;
    // The pause goes where an interval already crosses a whole second: then exactly afkSeconds seconds are empty.
    if (
      !paused &&
      Math.floor(at / 1000) < Math.floor((at + gap) / 1000) &&
      at + gap - Math.floor(at / 1000) * 1000 < 2000
    ) {
      at += pauseMs;
      paused = true;
    }
    at += gap;
  }
  if (!paused) throw new Error('typing plan: no place for the afk pause (too few keys)');
}

/** Chart boundaries (ms) as the client draws them: whole seconds, plus the end of an untimed test's last half second. */
function boundaries(plan: TypingPlan, endMs: number): number[] {
  const list: number[] = [];
  for (let s = 1; s <= Math.floor(endMs / 1000 + 1e-9); s++) list.push(s * 1000);
  const timed = plan.mode === 'time' || (plan.mode === 'words' && plan.mode2 === '0');
  if (!timed && round2(endMs / 1000) % 1 >= 0.5) list.push(endMs);
  return list;
}

/** Types out a plan: the keystroke timeline, and every measurement the client derives from it. */
export function typeTest(rng: Random, typist: Typist, plan: TypingPlan): TypedTest {
  const keys = keySequence(rng, plan);
  const zen = plan.mode === 'zen';
  const untimedEnd = plan.mode !== 'time' && !plan.bailedOut;
  // Untimed tests end on their last key; timed ones a moment after it; zen on its last key, reported from the first.
  const lastKeyToEnd = zen
    ? 0
    : untimedEnd
      ? tenth(1 + rng.next() * 5)
      : tenth(rng.next() * Math.min(900, plan.durationMs / keys.length));
  // The client reports its end rounded to 10 ms (custom tests unrounded): the timeline is off by up to 5 ms. A timed
  // test's timer never ends early.
  const jitter =
    plan.mode === 'custom' ? 0 : plan.mode === 'time' ? rng.next() * 4.9 : rng.next() * 9.9 - 4.95;
  const endMs = plan.durationMs + jitter;
  placeKeys(rng, typist, keys, 0, plan.bailedOut ? endMs : endMs - lastKeyToEnd, plan);

  const bounds = boundaries(plan, endMs);
  const wpm: number[] = [];
  const burst: number[] = [];
  const err: number[] = [];
  let afk = 0;
  let k = 0;
  let correctWordChars = 0;
  let previous = 0;
  for (const boundary of bounds) {
    let inserts = 0;
    let wrong = 0;
    let events = 0;
    while (k < keys.length && (keys[k] as Key).at <= boundary) {
      const key = keys[k] as Key;
      events++;
      if (key.insert) {
        inserts++;
        if (!key.correct) wrong++;
        else if (key.correctWord) correctWordChars++;
      }
      k++;
    }
    if (events === 0) afk++;
    const seconds = (boundary - previous) / 1000;
    burst.push(Math.round((inserts * 12) / seconds));
    err.push(wrong);
    wpm.push(Math.round((correctWordChars * 12) / (boundary / 1000)));
    previous = boundary;
  }

  const keySpacing: number[] = [];
  let overlap = 0;
  for (let i = 1; i < keys.length; i++) {
    const a = keys[i - 1] as Key;
    const b = keys[i] as Key;
    keySpacing.push(b.at - a.at);
    overlap += Math.max(0, a.at + a.hold - b.at);
  }
  const inserts = keys.filter((key) => key.insert);
  const right = inserts.filter((key) => key.correct).length;
  // Custom tests report the duration unrounded, every other mode in hundredths.
  const testDuration = plan.durationMs / 1000;
  return {
    wpm: round2((plan.correctChars * 12) / testDuration),
    rawWpm: round2((plan.totalChars * 12) / testDuration),
    acc: round2((100 * right) / inserts.length),
    charStats: [plan.correctChars, plan.incorrectChars, 0, 0],
    charTotal: plan.totalChars,
    testDuration,
    afkDuration: afk,
    consistency: consistencyOf(burst),
    wpmConsistency: consistencyOf(wpm),
    keyConsistency: consistencyOf(keySpacing.slice(0, -1)),
    chartData: { wpm, burst, err },
    keySpacing,
    keyDuration: keys.map((key) => key.hold),
    keyOverlap: round2(overlap),
    startToFirstKey: 0,
    lastKeyToEnd,
  };
}

/** A typist drawn from the published spread: interval cv 0.35-0.7, holds 70-150 ms, a few hesitations. */
export function drawTypist(rng: Random): Typist {
  return {
    intervalCv: Math.min(0.7, Math.max(0.35, rng.normal(0.5, 0.09))),
    holdMeanMs: Math.min(150, Math.max(70, rng.normal(105, 18))),
    holdCv: Math.min(0.45, Math.max(0.2, rng.normal(0.3, 0.05))),
    hesitation: rng.next() * 0.04,
  };
}

/**
 * The counts of a test from the figures asked for: correct and total characters from wpm and raw over the duration,
 * wrong characters left when raw is above wpm, corrected mistakes to bring acc down to what was asked.
 */
export function planFor(figures: {
  mode: TypingMode;
  mode2: string;
  durationMs: number;
  wpm: number;
  rawWpm: number;
  acc: number;
  afkSeconds?: number;
  bailedOut?: boolean;
}): TypingPlan {
  const seconds = figures.durationMs / 1000;
  const correctChars = Math.round((figures.wpm * seconds) / 12);
  const totalChars = Math.max(correctChars, 1, Math.round((figures.rawWpm * seconds) / 12));
  const wrongWordChars = totalChars - correctChars;
  const q = 1 - figures.acc / 100;
  // About one wrong character per wrong word, never more than the accuracy leaves room for.
  const incorrectChars =
    wrongWordChars === 0
      ? 0
      : Math.max(1, Math.min(Math.round(wrongWordChars / 5), Math.floor(q * totalChars)));
  const corrections = q <= 0 ? 0 : Math.max(0, Math.round((q * totalChars - incorrectChars) / (1 - q)));
  if (figures.acc >= 100 && incorrectChars > 0) {
    throw new Error(
      `typing plan: acc 100 leaves no wrong characters, but raw ${figures.rawWpm} > wpm ${figures.wpm}`,
    );
  }
  return {
    mode: figures.mode,
    mode2: figures.mode2,
    bailedOut: figures.bailedOut,
    durationMs: figures.durationMs,
    correctChars,
    totalChars,
    incorrectChars,
    corrections,
    afkSeconds: figures.afkSeconds ?? 0,
  };
}

/** The client sends no chart and no key timings for tests over 122 s (its save step replaces them). */
export function tooLong(result: Record<string, unknown>): void {
  if ((result.testDuration as number) > 122) {
    result.chartData = 'toolong';
    result.keySpacing = 'toolong';
    result.keyDuration = 'toolong';
  }
}
