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

/** One check's verdict on a result: its name, the status it answers, and the figures it judged (logged). */
export interface Finding {
  check: string;
  status: 463 | 464 | 465;
  figures: Record<string, number | string | boolean>;
}

/** Rounded for logs and the review queue: figures to 2 decimals (3 for ratios under 10). */
export function fig(n: number): number {
  if (!Number.isFinite(n)) return n;
  return Math.abs(n) < 10 ? Math.round(n * 1000) / 1000 : Math.round(n * 100) / 100;
}
