import { Injectable } from '@nestjs/common';

/** Hits and misses of one in-process cache: plain counters on the hot path, read when Prometheus scrapes. */
export class CacheStats {
  hits = 0;
  misses = 0;

  record(hit: boolean): void {
    if (hit) this.hits += 1;
    else this.misses += 1;
  }
}

/**
 * The caches that keep the hot path cheap (verified ID tokens, verified ApeKeys): their owners count lookups here and
 * `/metrics` reports the hit rate, so an operator sees when a cache is too small or a client misuses tokens.
 */
@Injectable()
export class CacheStatsRegistry {
  readonly token = new CacheStats();
  readonly apeKey = new CacheStats();
}
