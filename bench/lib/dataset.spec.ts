import { DEFAULT_SIZE, userRanges } from './dataset';

describe('userRanges', () => {
  type Range = { from: number; to: number };
  const submitting = (r: ReturnType<typeof userRanges>): [string, Range][] => [
    ['submitOurs', r.submitOurs],
    ['submitBaseline', r.submitBaseline],
    ['stream', r.stream],
    ['openLoop', r.openLoop],
    ['freshBests', r.freshBests],
  ];

  it.each([
    ['the default dataset', DEFAULT_SIZE, 10_000],
    ['a dataset just large enough', { ...DEFAULT_SIZE, users: 4_000 }, 1_000],
  ])('gives every submitting scenario users no other one submits for: %s', (_label, size, requests) => {
    const ranges = submitting(userRanges(size, requests));
    for (const [name, range] of ranges) {
      expect({ name, inside: range.from >= 0 && range.from <= range.to && range.to <= size.users }).toEqual({
        name,
        inside: true,
      });
    }
    const sorted = ranges.map(([, r]) => r).sort((a, b) => a.from - b.from);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.from).toBeGreaterThanOrEqual(sorted[i - 1]!.to);
  });

  it('keeps the last 400 users for scenario 7a and 16,000 below them for the open loop', () => {
    const r = userRanges(DEFAULT_SIZE, 20_000);
    expect(r.freshBests).toEqual({ from: 99_600, to: 100_000 });
    expect(r.openLoop).toEqual({ from: 83_600, to: 99_600 });
    expect(r.stream).toEqual({ from: 73_600, to: 83_600 });
    expect(r.reads).toEqual({ from: 40_000, to: 100_000 });
  });

  it('refuses a dataset too small for the submissions asked', () => {
    expect(() => userRanges({ ...DEFAULT_SIZE, users: 1_000 }, 1_000)).toThrow(/need at least 4000/);
  });
});
