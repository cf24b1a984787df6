import { Inject, Injectable } from '@nestjs/common';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { isStoreUnavailable } from '../filters/store-errors';
import { fallbackRateLimiter } from '../rate-limit/memory-rate-limiter';

/**
 * Failed authentications per client IP (spec "Bad authentication"): every 401/404/47x of the auth step counts; past
 * the limit every request from that IP gets 429 until the window that started with the first failure ends.
 * While Redis is unreachable the counter lives in this process (per replica), so the check neither fails requests
 * nor disappears.
 */
@Injectable()
export class BadAuthService {
  private readonly fallback = fallbackRateLimiter;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly configuration: ServerConfigurationService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  private async settings(): Promise<{ enabled: boolean; max: number; windowMs: number }> {
    const { badAuthentication } = (await this.configuration.get()).rateLimiting;
    return {
      enabled: badAuthentication.enabled,
      max: badAuthentication.maxAttempts * (this.env.mode === 'dev' ? 100 : 1),
      windowMs: badAuthentication.windowSeconds * 1000,
    };
  }

  async isBanned(ip: string): Promise<boolean> {
    const { enabled, max } = await this.settings();
    if (!enabled) return false;
    const key = redisKeys.badAuth(ip);
    const count = await this.degradable(
      async () => Number((await this.redis.get(key)) ?? 0),
      () => this.fallback.count(key),
    );
    return count >= max;
  }

  async recordFailure(ip: string): Promise<void> {
    const { enabled, windowMs } = await this.settings();
    if (!enabled) return;
    const key = redisKeys.badAuth(ip);
    await this.degradable(
      () => this.redis.rateLimitIncrement(key, windowMs),
      () => this.fallback.increment(key, windowMs),
    );
  }

  private async degradable<T>(viaRedis: () => Promise<T>, inMemory: () => T): Promise<T> {
    if (this.redis.status !== 'ready') return inMemory();
    try {
      return await viaRedis();
    } catch (e) {
      if (!isStoreUnavailable(e)) throw e;
      return inMemory();
    }
  }
}
