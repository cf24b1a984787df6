import { Random } from '../../../../../generators/human-typing';
import { MAX_LAG, timingProfile, timingSums, WINDOW } from './timing-profile';

const lognormal = (rng: Random, n: number, mean: number, cv: number) =>
  Array.from({ length: n }, () => Math.round(rng.lognormal(mean, cv) * 10) / 10);

describe('key timing figures', () => {
  it('sums, zeros and the whole seconds inside pauses', () => {
    expect(timingSums([100, 0, 2500, 999.9, 1000])).toEqual({
      count: 5,
      sum: 4599.9,
      zeros: 1,
      wholeSeconds: 3,
    });
    expect(timingSums([])).toEqual({ count: 0, sum: 0, zeros: 0, wholeSeconds: 0 });
  });

  it('mean, sd and cv over the non-zero timings', () => {
    const p = timingProfile([100, 200, 0, 300]);
    expect(p.mean).toBe(200);
    expect(p.sd).toBeCloseTo(81.65, 2);
    expect(p.cv).toBeCloseTo(0.408, 3);
  });

  it('counts distinct whole milliseconds, leaving zeros out', () => {
    expect(timingProfile([40.2, 40.4, 41, 41.4, 0, 0]).distinct).toBe(2);
    expect(timingProfile(Array.from({ length: 500 }, (_, i) => i)).distinct).toBe(499);
  });

  it('finds repeated windows of timings: none in drawn timings, nearly all in a repeated block', () => {
    const rng = new Random(1);
    const drawn = lognormal(rng, 600, 90, 0.5);
    expect(timingProfile(drawn).repeatedShare).toBe(0);
    const block = drawn.slice(0, 50);
    const repeated = Array.from({ length: 600 }, (_, i) => block[i % 50] as number);
    // Every window after the first 50 was seen before.
    expect(timingProfile(repeated).repeatedShare).toBeCloseTo(
      (600 - WINDOW + 1 - 50) / (600 - WINDOW + 1),
      5,
    );
  });

  it('ignores windows holding a zero (keys whose release was not seen)', () => {
    expect(timingProfile(Array.from({ length: 100 }, () => 0)).repeatedShare).toBe(0);
  });

  it('autocorrelation: low for drawn timings, near 1 for a jittered pattern, 1 for a constant', () => {
    const rng = new Random(2);
    expect(timingProfile(lognormal(rng, 800, 90, 0.5)).autocorrelation).toBeLessThan(0.2);
    const pattern = Array.from({ length: 800 }, (_, i) => [40, 120, 70][i % 3]! + rng.next() * 4);
    expect(timingProfile(pattern).autocorrelation).toBeGreaterThan(0.95);
    expect(timingProfile(Array.from({ length: 100 }, () => 41)).autocorrelation).toBe(1);
  });

  it('looks at lags up to MAX_LAG only where the series is long enough for them', () => {
    const rng = new Random(3);
    const period = MAX_LAG + 1;
    const beyond = Array.from({ length: 800 }, (_, i) => (i % period === 0 ? 300 : 60) + rng.next() * 5);
    expect(timingProfile(beyond).autocorrelation).toBeLessThan(0.5);
    expect(timingProfile([1, 2, 3]).autocorrelation).toBe(0);
  });

  it('handles arrays far larger than the last one (the scratch table grows) and back', () => {
    const rng = new Random(4);
    expect(timingProfile(lognormal(rng, 20_000, 90, 0.5)).distinct).toBeGreaterThan(300);
    expect(timingProfile([10, 20, 30]).distinct).toBe(3);
  });
});
