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
    const secondsLeft = Math.max(1, Math.ceil(msLeft / 1000));
    const isBlocked = hits > limit;
    return {
      totalHits: hits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
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
