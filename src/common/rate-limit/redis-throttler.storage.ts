import { Inject, Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { REDIS, type Redis } from '../../infra/redis/redis';

/**
 * @nestjs/throttler storage on Redis, so every replica shares the counters. Fixed windows: one atomic script call
 * per check. Keys arrive already built (hash-tagged) by the guard.
 */
@Injectable()
export class RedisThrottlerStorage implements ThrottlerStorage {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [hits, msLeft] = await this.redis.rateLimitIncrement(key, ttl);
    const secondsLeft = Math.max(1, Math.ceil(msLeft / 1000));
    const isBlocked = hits > limit;
    return {
      totalHits: hits,
      timeToExpire: secondsLeft,
      isBlocked,
      timeToBlockExpire: isBlocked ? secondsLeft : 0,
    };
  }
}
