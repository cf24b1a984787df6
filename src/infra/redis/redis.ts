import Redis from 'ioredis';
import { REDIS_SCRIPTS } from './scripts';

export const REDIS = Symbol('REDIS');
export type { Redis };

export interface RedisClientOptions {
  /** A command not answered within this many ms fails (queued while reconnecting included). */
  commandTimeoutMs?: number;
  /** A connection attempt not established within this many ms is abandoned and retried. */
  connectTimeoutMs?: number;
}

/** Longest pause between reconnection attempts: the client notices a returning Redis within about a second. */
const MAX_RECONNECT_DELAY_MS = 1000;

/**
 * One ioredis client per process with every Lua script registered through `defineCommand` (EVALSHA with an
 * automatic EVAL fallback after a script cache flush). Auto-pipelining batches concurrent commands into one write.
 *
 * Outage behaviour: commands sent while disconnected wait in the offline queue only for a short reconnect (a blip),
 * never for long — `commandTimeout` bounds every command and `maxRetriesPerRequest: 1` flushes the queue after one
 * failed reconnect — so requests answer fast (degraded or 503) instead of hanging. Callers that can degrade ask
 * `RedisHealth` first and skip Redis altogether while it is known to be down.
 */
export function createRedis(url: string, options: RedisClientOptions = {}): Redis {
  const client = new Redis(url, {
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
    lazyConnect: false,
  });
  for (const script of REDIS_SCRIPTS) {
    client.defineCommand(script.name, { numberOfKeys: script.numberOfKeys, lua: script.lua });
  }
  // Connection errors surface on the commands that fail; the client reconnects by itself.
  client.on('error', () => undefined);
  return client;
}
