import { MemoryRateLimiter } from './memory-rate-limiter';

describe('MemoryRateLimiter', () => {
  let now: number;
  let limiter: MemoryRateLimiter;

  beforeEach(() => {
    now = 1_000_000;
    limiter = new MemoryRateLimiter(() => now);
  });

  it('counts hits in a window that starts with the first hit', () => {
    expect(limiter.increment('a', 60_000)).toEqual([1, 60_000]);
    now += 10_000;
    expect(limiter.increment('a', 60_000)).toEqual([2, 50_000]);
    expect(limiter.count('a')).toBe(2);
    expect(limiter.count('b')).toBe(0);
  });

  it('starts a new window once the old one ended', () => {
    limiter.increment('a', 1000);
    limiter.increment('a', 1000);
    now += 1000;
    expect(limiter.count('a')).toBe(0);
    expect(limiter.increment('a', 1000)).toEqual([1, 1000]);
  });

  it('adds weighted hits (the bad-authentication penalty)', () => {
    expect(limiter.increment('a', 1000, 2.5)).toEqual([2.5, 1000]);
    expect(limiter.increment('a', 1000, 0.5)).toEqual([3, 1000]);
    expect(limiter.count('a')).toBe(3);
  });

  it('keeps keys apart', () => {
    limiter.increment('a', 1000);
    expect(limiter.increment('b', 1000)).toEqual([1, 1000]);
    expect(limiter.size).toBe(2);
  });
});
