import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_ENV, type AppEnv } from '../../config/env';
import { createRedis, REDIS, type Redis } from './redis';

@Global()
@Module({
  providers: [
    { provide: REDIS, inject: [APP_ENV], useFactory: (env: AppEnv): Redis => createRedis(env.redisUrl) },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
