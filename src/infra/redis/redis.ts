import Redis from 'ioredis';
import { REDIS_SCRIPTS } from './scripts';

export const REDIS = Symbol('REDIS');
export type { Redis };

/**
 * One ioredis client per process with every Lua script registered through `defineCommand` (EVALSHA with an
 * automatic EVAL fallback after a script cache flush). Auto-pipelining batches concurrent commands into one write.
 */
export function createRedis(url: string): Redis {
  const client = new Redis(url, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 2,
    lazyConnect: false,
  });
  for (const script of REDIS_SCRIPTS) {
    client.defineCommand(script.name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
  }
  // Connection errors surface on the commands that fail; the client reconnects by itself.
  client.on('error', () => undefined);
  return client;
}
