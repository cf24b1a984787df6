import { createServer } from 'node:net';
import IORedis from 'ioredis';
import type { AppEnv } from '../../config/env';
import type { RedisHealth } from './redis-health';
import { RedisModule } from './redis.module';

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('RedisModule start-up wait', () => {
  it('gives up after twice the connect timeout when Redis is down, and leaves no listener behind', async () => {
    const redis = new IORedis({
      host: '127.0.0.1',
      port: await closedPort(),
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    redis.on('error', () => undefined);
    try {
      const before = redis.listenerCount('ready');
      const module = new RedisModule(
        redis,
        { redisConnectTimeoutMs: 20 } as AppEnv,
        { shutdown: () => undefined } as unknown as RedisHealth,
      );
      const started = Date.now();
      await module.onModuleInit();
      expect(Date.now() - started).toBeGreaterThanOrEqual(35);
      expect(redis.status).not.toBe('ready');
      expect(redis.listenerCount('ready')).toBe(before);
    } finally {
      // With no retries the client has ended by itself; a disconnect() after that starts a 2 s timer of ioredis's.
      if (redis.status !== 'end') redis.disconnect();
    }
  });
});
