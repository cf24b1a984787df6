export interface KeyStats {
  average: number;
  sd: number;
}

function roundTo2(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100;
}

/** Mean and population standard deviation of key timings, rounded to 2 decimals; none without timings. */
export function keyStats(timings: number[] | 'toolong' | undefined): KeyStats | null {
  if (!Array.isArray(timings) || timings.length === 0) return null;
  // Plain loops, summing left to right as `reduce` did: its callback's result was a boxed number per timing (about
  // 13 KB of garbage for a submission's two lists).
  let sum = 0;
  for (let i = 0; i < timings.length; i++) sum += timings[i] as number;
  const mean = sum / timings.length;
  let squares = 0;
  for (let i = 0; i < timings.length; i++) squares += ((timings[i] as number) - mean) ** 2;
  const variance = squares / timings.length;
  return { average: roundTo2(mean), sd: roundTo2(Math.sqrt(variance)) };
}
