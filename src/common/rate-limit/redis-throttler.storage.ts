import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { isStoreUnavailable } from '../filters/store-errors';
import { fallbackRateLimiter } from './memory-rate-limiter';

/**
 * @nestjs/throttler storage on Redis, so every replica shares the counters. Fixed windows: one atomic script call
 * per check. Keys arrive already built (hash-tagged) by the guard. While Redis is unreachable the counts go to a
 * per-process in-memory limiter (degraded, never a failed request).
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger(RedisThrottlerStorage.name);
  private readonly fallback = fallbackRateLimiter;

  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [hits, msLeft] = await this.count(key, ttl);
    return record(hits, msLeft, limit);
  }

  /**
   * The ban check of an IP and one or two counters of that IP (an anonymous request: every key carries the IP's hash
   * tag) in one script call: 'banned' (nothing counted) or the records of the counters counted, stopping after the
   * first one over its limit — what `BadAuthService.isBanned` and then `increment` per counter would answer.
   */
  async incrementUnlessBanned(
    ban: { key: string; threshold: number } | null,
    counters: { key: string; ttl: number; limit: number }[],
  ): Promise<'banned' | ThrottlerStorageRecord[]> {
    const counts = await this.countUnlessBanned(ban, counters);
    if (counts === 'banned') return counts;
    return counts.map(([hits, msLeft], i) => record(hits, msLeft, (counters[i] as { limit: number }).limit));
  }

  private async countUnlessBanned(
    ban: { key: string; threshold: number } | null,
    counters: { key: string; ttl: number; limit: number }[],
  ): Promise<'banned' | [number, number][]> {
    const first = counters[0];
    if (!first || counters.length > 2) throw new Error('one or two counters');
    const second = counters[1];
    if (this.redis.status === 'ready') {
      try {
        const reply = await this.redis.rateLimitUnlessBanned(
          ban?.key ?? first.key,
          first.key,
          second?.key ?? first.key,
          ban?.threshold ?? -1,
          second ? 2 : 1,
          ...counters.flatMap((c) => [c.ttl, c.limit]),
        );
        if (reply[0] === 1) return 'banned';
        const counts: [number, number][] = [];
        for (let i = 1; i + 1 < reply.length; i += 2)
          counts.push([reply[i] as number, reply[i + 1] as number]);
        return counts;
      } catch (e) {
        if (!isStoreUnavailable(e)) throw e;
        this.logger.warn({ err: (e as Error).message }, 'rate limit counted in memory: Redis unreachable');
      }
    }
    if (ban && this.fallback.count(ban.key) >= ban.threshold) return 'banned';
    const counts: [number, number][] = [];
    for (const { key, ttl, limit } of counters) {
      const count = this.fallback.increment(key, ttl);
      counts.push(count);
      if (count[0] > limit) break;
    }
    return counts;
  }

  private async count(key: string, ttl: number): Promise<[number, number]> {
    if (this.redis.status !== 'ready') return this.fallback.increment(key, ttl);
    try {
      return await this.redis.rateLimitIncrement(key, ttl);
    } catch (e) {
      if (!isStoreUnavailable(e)) throw e;
      this.logger.warn({ err: (e as Error).message }, 'rate limit counted in memory: Redis unreachable');
      return this.fallback.increment(key, ttl);
    }
  }
}

function record(hits: number, msLeft: number, limit: number): ThrottlerStorageRecord {
  const secondsLeft = Math.max(1, Math.ceil(msLeft / 1000));
  const isBlocked = hits > limit;
  return {
    totalHits: hits,
    timeToExpire: secondsLeft,
    isBlocked,
    timeToBlockExpire: isBlocked ? secondsLeft : 0,
  };
}
