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
  const mean = timings.reduce((sum, t) => sum + t, 0) / timings.length;
  const variance = timings.reduce((sum, t) => sum + (t - mean) ** 2, 0) / timings.length;
  return { average: roundTo2(mean), sd: roundTo2(Math.sqrt(variance)) };
}
