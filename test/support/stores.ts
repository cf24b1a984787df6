import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { Client } from 'pg';
import { parseRedisClusterNodes, type RedisNode } from '../../src/config/env';

let redisCounter = 0;

declare global {
  /** Set (jest `globals`) in the `e2e-cluster` project: the suites run against the local Redis Cluster. */
  var __REDIS_CLUSTER__: boolean | undefined;
}

export interface TestStores {
  databaseUrl: string;
  /** The single server's logical database; empty on the cluster. */
  redisUrl: string;
  /** The local Redis Cluster's nodes (`e2e-cluster` project); empty on the single server. */
  redisClusterNodes: RedisNode[];
  /** This test app's own key space on the cluster (which has only database 0); empty on the single server. */
  redisKeyPrefix: string;
}

/** Whether this test file runs against the Redis Cluster (the `e2e-cluster` jest project). */
export function onRedisCluster(): boolean {
  return globalThis.__REDIS_CLUSTER__ === true;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: run the tests through jest (its global setup starts the stores)`);
  return value;
}

/**
 * A fresh database copied from the migrated template, and an empty Redis key space of its own: a flushed logical
 * database of the single server, or on the cluster a key prefix nobody used before.
 * Several app instances may share one `TestStores` (e.g. to prove two replicas run a job once).
 */
export async function createTestStores(): Promise<TestStores> {
  const adminUrl = required('TEST_PG_ADMIN_URL');
  const template = required('TEST_PG_TEMPLATE');
  const worker = Number(process.env.JEST_WORKER_ID ?? '1');

  // Module state restarts with every test file, so names must not depend on a counter.
  const suffix = randomBytes(8).toString('hex');
  const name = `t_${suffix}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  } finally {
    await admin.end();
  }
  const databaseUrl = adminUrl.replace(/\/postgres$/, `/${name}`);

  if (onRedisCluster()) {
    const nodes = parseRedisClusterNodes(required('TEST_REDIS_CLUSTER_NODES'));
    // Random, so nothing is left to flush; no braces, so every key's own hash tag still picks its slot.
    return { databaseUrl, redisUrl: '', redisClusterNodes: nodes, redisKeyPrefix: `t${suffix}:` };
  }

  const redisBase = required('TEST_REDIS_URL');
  const index = ((worker - 1) * 64 + (redisCounter++ % 64)) % 1024;
  const redisUrl = `${redisBase}/${index}`;
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  await redis.flushdb();
  await redis.quit();

  return { databaseUrl, redisUrl, redisClusterNodes: [], redisKeyPrefix: '' };
}

/** The environment variables that point a child process or the CLI at these stores' Redis. */
export function redisEnvOf(stores: TestStores): Record<string, string> {
  if (stores.redisClusterNodes.length === 0) return { REDIS_URL: stores.redisUrl };
  return {
    REDIS_CLUSTER_NODES: stores.redisClusterNodes.map((n) => `${n.host}:${n.port}`).join(','),
    REDIS_KEY_PREFIX: stores.redisKeyPrefix,
  };
}
