import { Inject, Injectable } from '@nestjs/common';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';

/**
 * Failed authentications per client IP (spec "Bad authentication"): every 401/404/47x of the auth step counts; past
 * the limit every request from that IP gets 429 until the window that started with the first failure ends.
 */
@Injectable()
export class BadAuthService {
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
    const count = Number((await this.redis.get(redisKeys.badAuth(ip))) ?? 0);
    return count >= max;
  }

  async recordFailure(ip: string): Promise<void> {
    const { enabled, windowMs } = await this.settings();
    if (!enabled) return;
    await this.redis.rateLimitIncrement(redisKeys.badAuth(ip), windowMs);
  }
}
