import { Inject, Injectable } from '@nestjs/common';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ServerConfigurationService } from '../server-configuration/server-configuration.service';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { isStoreUnavailable } from '../filters/store-errors';
import { fallbackRateLimiter } from '../rate-limit/memory-rate-limiter';

interface BadAuthSettings {
  enabled: boolean;
  /** Points an IP may collect in a window; reaching it bans the IP. */
  max: number;
  windowMs: number;
  /** Points one flagged failure adds. */
  penalty: number;
  flaggedStatusCodes: number[];
}

/**
 * Failed authentications per client IP (spec "Bad authentication", contract facts §3.9): a failure of the auth step
 * whose status is in `rateLimiting.badAuthentication.flaggedStatusCodes` adds `penalty` points; once the IP holds
 * `maxAttempts` points every request from it gets 429 until the window that started with the first failure ends.
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

  private async settings(): Promise<BadAuthSettings> {
    const { badAuthentication } = (await this.configuration.get()).rateLimiting;
    return {
      enabled: badAuthentication.enabled,
      max: badAuthentication.maxAttempts * (this.env.mode === 'dev' ? 100 : 1),
      windowMs: badAuthentication.windowSeconds * 1000,
      penalty: badAuthentication.penalty,
      flaggedStatusCodes: badAuthentication.flaggedStatusCodes,
    };
  }

  /** The IP's counter and the points that ban it, or null when bans are off (one script checks it with the limits). */
  async banCheck(ip: string): Promise<{ key: string; threshold: number } | null> {
    const { enabled, max } = await this.settings();
    return enabled ? { key: redisKeys.badAuth(ip), threshold: max } : null;
  }

  async isBanned(ip: string): Promise<boolean> {
    const { enabled, max } = await this.settings();
    if (!enabled) return false;
    const key = redisKeys.badAuth(ip);
    const points = await this.degradable(
      async () => Number((await this.redis.get(key)) ?? 0),
      () => this.fallback.count(key),
    );
    return points >= max;
  }

  /** Records a failed authentication answered with `status`; only flagged statuses count. */
  async recordFailure(ip: string, status: number): Promise<void> {
    const { enabled, windowMs, penalty, flaggedStatusCodes } = await this.settings();
    // A zero penalty adds nothing: no key is written either.
    if (!enabled || penalty <= 0 || !flaggedStatusCodes.includes(status)) return;
    const key = redisKeys.badAuth(ip);
    await this.degradable<unknown>(
      () => this.redis.rateLimitAdd(key, windowMs, penalty),
      () => this.fallback.increment(key, windowMs, penalty),
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
