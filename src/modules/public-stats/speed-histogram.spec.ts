import { bucketOf, toHistogram } from './speed-histogram';

describe('speed histogram buckets', () => {
  it.each([
    [0, 0],
    [9.99, 0],
    [10, 10],
    [87.5, 80],
    [309.99, 300],
    [310, -1],
    [420, -1],
  ])('%d wpm falls in bucket %d', (wpm, bucket) => {
    expect(bucketOf(wpm)).toBe(bucket);
  });

  it('names buckets by their start and the rest "Other"', () => {
    expect(
      toHistogram([
        { bucket: 0, count: 1 },
        { bucket: 120, count: 7 },
        { bucket: -1, count: 2 },
      ]),
    ).toEqual({ '0': 1, '120': 7, Other: 2 });
    expect(toHistogram([])).toEqual({});
  });
});
