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

// One reusable array of derived values (whole ms, centred values): typed and contiguous, so the inner loops are
// plain multiply-adds. Grows to the largest array seen.
let work = new Float64Array(1024);
function workArray(n: number): Float64Array {
  if (work.length < n) work = new Float64Array(max(n, work.length * 2));
  return work;
}

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

// Rolling polynomial hashes (mod 2^32) of WINDOW values, two bases: B^WINDOW drops the value leaving the window.
const B1 = 31;
const B2 = 0x01000193;
function powMod32(base: number, exponent: number): number {
  let p = 1;
  for (let i = 0; i < exponent; i++) p = imul(p, base);
  return p;
}
const B1_OUT = powMod32(B1, WINDOW);
const B2_OUT = powMod32(B2, WINDOW);

function repeatedWindowShare(values: readonly number[]): number {
  const n = values.length;
  const windows = n - WINDOW + 1;
  if (windows < 2) return 0;
  scratch.reset(windows);
  let counted = 0;
  let repeated = 0;
  let h1 = 0;
  let h2 = 0;
  // The last zero seen: a window holding one is not counted (a key whose release was not seen).
  let lastZero = -1;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    if (v === 0) lastZero = i;
    const q = round(v) | 0;
    h1 = (imul(h1, B1) + q) | 0;
    h2 = (imul(h2, B2) + q) | 0;
    if (i >= WINDOW) {
      const out = round(values[i - WINDOW] as number) | 0;
      h1 = (h1 - imul(out, B1_OUT)) | 0;
      h2 = (h2 - imul(out, B2_OUT)) | 0;
    }
    if (i < WINDOW - 1 || lastZero > i - WINDOW) continue;
    counted++;
    // Both hashes packed into one exact float key (53 bits).
    const key = (h1 >>> 0) * 2097152 + ((h2 >>> 0) & 0x1fffff);
    if (!scratch.add(key, h1 >>> 0)) repeated++;
  }
  return counted === 0 ? 0 : repeated / counted;
}

function maxAutocorrelation(values: readonly number[], mean: number): number {
  const n = values.length;
  // A few long pauses would dominate the products; a pattern that repeats shows up whatever its pauses.
  const cap = mean * 3;
  const w = workArray(n);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as number;
    w[i] = v > cap ? cap : v;
    m += w[i] as number;
  }
  m /= n;
  let variance = 0;
  for (let i = 0; i < n; i++) {
    const d = (w[i] as number) - m;
    w[i] = d;
    variance += d * d;
  }
  if (variance === 0) return 1;
  let best = 0;
  for (let lag = 2; lag <= MAX_LAG && lag * 8 <= n; lag++) {
    let products = 0;
    for (let i = lag; i < n; i++) products += (w[i] as number) * (w[i - lag] as number);
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
