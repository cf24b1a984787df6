/**
 * Figures of one key-timing array (`keySpacing` or `keyDuration`, milliseconds), each in one pass without allocating
 * per call: POST /results judges arrays of up to a few thousand timings, so every figure is O(n) (the
 * autocorrelation O(n × MAX_LAG) with a fixed lag bound) and the hash tables are module scratch, reused.
 */

// Module bindings, not global lookups in the loops (cheaper everywhere, and much cheaper in jest's vm contexts).
const { round, floor, imul, sqrt, ceil, log2, max } = Math;

/** Consecutive timings that make one window of the repeated-block figure. */
export const WINDOW = 6;
/** Largest lag of the autocorrelation figure. */
export const MAX_LAG = 16;

export interface TimingSums {
  count: number;
  sum: number;
  zeros: number;
  /** Whole seconds inside the timings (Σ floor(t / 1000)): the most afk seconds a pause of that length can hold. */
  wholeSeconds: number;
}

export interface TimingProfile extends TimingSums {
  /** Over the non-zero timings (a zero is a key the client saw no release of). */
  mean: number;
  sd: number;
  cv: number;
  /** Distinct values rounded to whole milliseconds (browsers give 0.1 ms or 1 ms resolution), zeros left out. */
  distinct: number;
  /** Share (0-1) of the windows of WINDOW consecutive timings (whole ms, no zero) that already occurred earlier. */
  repeatedShare: number;
  /** Largest autocorrelation over lags 2..MAX_LAG, of the timings clipped at three times their mean. */
  autocorrelation: number;
}

export function timingSums(values: readonly number[]): TimingSums {
  let sum = 0;
  let zeros = 0;
  let wholeSeconds = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    sum += v;
    if (v === 0) zeros++;
    else if (v >= 1000) wholeSeconds += floor(v / 1000);
  }
  return { count: values.length, sum, zeros, wholeSeconds };
}

/**
 * An open-addressing set of numbers (integers up to 2^53) in typed arrays that live across calls: a generation stamp
 * marks the slots of the current use, so starting over costs nothing and a submission allocates nothing.
 */
class ScratchSet {
  private keys = new Float64Array(0);
  private stamps = new Uint32Array(0);
  private generation = 0;
  private mask = 0;

  /** Empties the set, sized for up to `count` members. */
  reset(count: number): void {
    const size = 1 << max(6, ceil(log2(count * 2 + 1)));
    if (size > this.keys.length) {
      this.keys = new Float64Array(size);
      this.stamps = new Uint32Array(size);
      this.generation = 0;
    }
    this.mask = Math.min(size, this.keys.length) - 1;
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.stamps.fill(0);
      this.generation = 1;
    }
  }

  /** Adds `key`; false when it was already there. */
  add(key: number, hash: number): boolean {
    let slot = hash & this.mask;
    for (;;) {
      if (this.stamps[slot] !== this.generation) {
        this.stamps[slot] = this.generation;
        this.keys[slot] = key;
        return true;
      }
      if (this.keys[slot] === key) return false;
      slot = (slot + 1) & this.mask;
    }
  }
}

const scratch = new ScratchSet();

function mix(key: number): number {
  // Both halves of the (up to 53-bit) integer, so large forged values do not all land in one slot.
  return imul((key | 0) ^ imul((key / 4294967296) | 0, 0x85ebca6b), 0x9e3779b1) >>> 0;
}

function distinctWholeMs(values: readonly number[]): number {
  scratch.reset(values.length);
  let distinct = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v === 0) continue;
    const key = round(v);
    if (scratch.add(key, mix(key))) distinct++;
  }
  return distinct;
}

function repeatedWindowShare(values: readonly number[]): number {
  const windows = values.length - WINDOW + 1;
  if (windows < 2) return 0;
  scratch.reset(windows);
  let counted = 0;
  let repeated = 0;
  outer: for (let i = 0; i < windows; i++) {
    // Two 32-bit polynomial hashes of the window's whole-ms values, packed into one exact float key (53 bits).
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let j = 0; j < WINDOW; j++) {
      const v = values[i + j] as number;
      if (v === 0) continue outer;
      const q = round(v);
      h1 = (imul(h1, 31) + (q | 0)) | 0;
      h2 = (imul(h2 ^ (q | 0), 0x01000193) + 0x9e37) | 0;
    }
    counted++;
    const key = (h1 >>> 0) * 2097152 + ((h2 >>> 0) & 0x1fffff);
    if (!scratch.add(key, h1 >>> 0)) repeated++;
  }
  return counted === 0 ? 0 : repeated / counted;
}

function maxAutocorrelation(values: readonly number[], mean: number): number {
  const n = values.length;
  // A few long pauses would dominate the products; a pattern that repeats shows up whatever its pauses.
  const cap = mean * 3;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    m += v > cap ? cap : v;
  }
  m /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    const d = (v > cap ? cap : v) - m;
    variance += d * d;
  }
  if (variance === 0) return 1;
  let best = 0;
  for (let lag = 2; lag <= MAX_LAG && lag * 8 <= n; lag++) {
    let products = 0;
    for (let i = lag; i < n; i++) {
      const a = values[i] as number;
      const b = values[i - lag] as number;
      products += ((a > cap ? cap : a) - m) * ((b > cap ? cap : b) - m);
    }
    // Normalised to the full series, so a short overlap cannot look more periodic than it is.
    const r = products / variance;
    if (r > best) best = r;
  }
  return best;
}

export function timingProfile(values: readonly number[]): TimingProfile {
  const sums = timingSums(values);
  const nonZero = sums.count - sums.zeros;
  const mean = nonZero === 0 ? 0 : sums.sum / nonZero;
  let squares = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    if (v !== 0) squares += (v - mean) * (v - mean);
  }
  const sd = nonZero === 0 ? 0 : sqrt(squares / nonZero);
  return {
    ...sums,
    mean,
    sd,
    cv: mean === 0 ? 0 : sd / mean,
    distinct: distinctWholeMs(values),
    repeatedShare: repeatedWindowShare(values),
    autocorrelation: values.length < 16 ? 0 : maxAutocorrelation(values, mean),
  };
}
