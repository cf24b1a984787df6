/** The fields of a submitted result the anti-cheat reads (the CompletedResultDto satisfies it). */
export interface CheckedResult {
  wpm: number;
  rawWpm: number;
  acc: number;
  mode: string;
  mode2: string;
  language: string;
  testDuration: number;
  afkDuration: number;
  consistency: number;
  bailedOut: boolean;
  funbox: readonly string[];
  charStats?: readonly number[];
  charTotal?: number;
  keyConsistency?: number;
  wpmConsistency?: number;
  chartData?: { wpm: readonly number[]; burst: readonly number[]; err: readonly number[] } | 'toolong';
  keySpacing?: readonly number[] | 'toolong';
  keyDuration?: readonly number[] | 'toolong';
  lastKeyToEnd?: number;
  startToFirstKey?: number;
  customText?: { limit: { mode: string; value: number } };
}

export type Figures = Record<string, number | string | boolean>;

/**
 * One check's contradiction in a result: its name, the status it answers when it refuses, the figures it compared
 * (logged, kept with a held or quarantined result), and how far past its tolerance the contradiction lies.
 * - `excess` is the deviation divided by the tolerance (above 1: past it). Within the check's `holdMargin` the result
 *   is held for review; past it, refused. `Infinity` marks what the client cannot produce at all (a count that its
 *   own arithmetic makes impossible), refused whatever the margin.
 * - `holdOnly` marks what the original client can produce in rare cases (a phone keyboard inserting a whole word for
 *   one key, a custom text made of very long words): such a finding holds the result, never refuses it.
 */
export interface Finding {
  check: string;
  status: 463 | 464 | 465;
  figures: Figures;
  excess: number;
  holdOnly?: boolean;
}

/** Rounded for logs and the review queue: figures to 2 decimals (3 for ratios under 10). */
export function fig(n: number): number {
  if (!Number.isFinite(n)) return n;
  return Math.abs(n) < 10 ? Math.round(n * 1000) / 1000 : Math.round(n * 100) / 100;
}

/** How many tolerances past the bound a deviation lies (a tolerance of 0 makes any deviation infinitely far). */
export function excessOf(deviation: number, tolerance: number): number {
  if (tolerance > 0) return deviation / tolerance;
  return deviation > 0 ? Infinity : 0;
}
