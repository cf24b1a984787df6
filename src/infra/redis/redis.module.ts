import { Global, Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_ENV, type AppEnv } from '../../config/env';
import { createRedis, REDIS, redisTargetOf, type Redis } from './redis';
import { REDIS_HEALTH, RedisHealth } from './redis-health';

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_ENV],
      useFactory: (env: AppEnv): Redis =>
        createRedis(redisTargetOf(env), {
          commandTimeoutMs: env.redisCommandTimeoutMs,
          connectTimeoutMs: env.redisConnectTimeoutMs,
        }),
    },
    { provide: REDIS_HEALTH, inject: [REDIS], useFactory: (redis: Redis) => new RedisHealth(redis) },
  ],
  exports: [REDIS, REDIS_HEALTH],
})
export class RedisModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_ENV) private readonly env: AppEnv,
    @Inject(REDIS_HEALTH) private readonly health: RedisHealth,
  ) {}

  /**
   * Waits for the first connection (bounded), so the first requests find Redis ready rather than degrading; a
   * process started during an outage still starts, degraded, and catches up when Redis appears.
   */
  async onModuleInit(): Promise<void> {
    if (this.redis.status === 'ready') return;
    const redis = this.redis;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.env.redisConnectTimeoutMs * 2);
      function done() {
        clearTimeout(timer);
        // On the timeout the listener would outlive the wait (and run once Redis appears): take it off.
        redis.off('ready', done);
        resolve();
      }
      redis.once('ready', done);
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.health.shutdown();
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
