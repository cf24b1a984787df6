import { Cluster } from 'ioredis';
import type { TestApp } from './test-app';

/**
 * This test app's keys matching a glob pattern, without its key prefix. KEYS takes a pattern, not a key, so ioredis
 * neither prefixes it nor routes it: on the cluster it is asked of every master.
 */
export async function keysMatching(t: TestApp, pattern: string): Promise<string[]> {
  const prefix = t.env.redisKeyPrefix;
  const nodes = t.redis instanceof Cluster ? t.redis.nodes('master') : [t.redis];
  const found = await Promise.all(nodes.map((node) => node.keys(prefix + pattern)));
  return found.flat().map((key) => key.slice(prefix.length));
}
