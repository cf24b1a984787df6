/** Counters kept at most; past it the oldest windows are dropped (a flood of distinct IPs cannot grow memory). */
const MAX_KEYS = 100_000;

interface Window {
  hits: number;
  resetAt: number;
}

/**
 * Fixed-window counters in this process: the stand-in for the Redis counters while Redis is unreachable. Limits then
 * hold per replica instead of across replicas, which is looser but never unlimited, and no request fails for it.
 * Same semantics as the `rateLimitIncrement` script: the window starts with its first hit.
 */
export class MemoryRateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts a hit worth `points` (1 unless weighted): [hits in the window, ms until it resets]. */
  increment(key: string, windowMs: number, points = 1): [number, number] {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      if (window) this.windows.delete(key);
      window = { hits: 0, resetAt: now + windowMs };
      this.evictIfFull(now);
      this.windows.set(key, window);
    }
    window.hits += points;
    return [window.hits, window.resetAt - now];
  }

  /** Hits in the current window (0 when none or expired). */
  count(key: string): number {
    const window = this.windows.get(key);
    return window && window.resetAt > this.now() ? window.hits : 0;
  }

  get size(): number {
    return this.windows.size;
  }

  private evictIfFull(now: number): void {
    if (this.windows.size < MAX_KEYS) return;
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now) this.windows.delete(key);
    }
    // Still full: drop the oldest insertions (Map keeps insertion order).
    for (const key of this.windows.keys()) {
      if (this.windows.size < MAX_KEYS) break;
      this.windows.delete(key);
    }
  }
}

/** One limiter per process for every fallback counter (route classes and bad-auth keys never collide). */
export const fallbackRateLimiter = new MemoryRateLimiter();
