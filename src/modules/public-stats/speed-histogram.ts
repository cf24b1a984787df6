/** Bucket width and the last bucket's start (the original buckets 0..310 by 10; faster lands in "Other"). */
export const BUCKET_WIDTH = 10;
export const LAST_BUCKET = 300;
export const OTHER_BUCKET = 'Other';

export interface BucketCount {
  /** Bucket start, multiple of BUCKET_WIDTH, or -1 for everything past the last bucket. */
  bucket: number;
  count: number;
}

/** The bucket a wpm falls in, as the SQL computes it (kept in one place for the unit test and the query). */
export function bucketOf(wpm: number): number {
  const start = Math.floor(wpm / BUCKET_WIDTH) * BUCKET_WIDTH;
  return start > LAST_BUCKET ? -1 : start;
}

/** `{ "<bucket start>": count }`, empty buckets left out, as the original's histogram document. */
export function toHistogram(rows: BucketCount[]): Record<string, number> {
  const histogram: Record<string, number> = {};
  for (const row of rows) histogram[row.bucket === -1 ? OTHER_BUCKET : String(row.bucket)] = row.count;
  return histogram;
}
