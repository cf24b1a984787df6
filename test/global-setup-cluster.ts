import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisCluster, type RedisClusterHandle } from '../src/infra/embedded/redis-server';

declare global {
  var __TEST_REDIS_CLUSTER__: { cluster: RedisClusterHandle; dir: string } | undefined;
}

/**
 * The `e2e-cluster` project's stores, next to the ones of test/global-setup.ts: a local Redis Cluster of three
 * masters (in memory, throwaway directory for the nodes' cluster state files). Its suites give each test app its own
 * key prefix instead of a logical database (a Cluster has only database 0).
 */
export default async function globalSetupCluster(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'typing-cluster-'));
  const cluster = await startRedisCluster({ masters: 3, dir });
  globalThis.__TEST_REDIS_CLUSTER__ = { cluster, dir };
  process.env.TEST_REDIS_CLUSTER_NODES = cluster.nodes.map((n) => `${n.host}:${n.port}`).join(',');
}
