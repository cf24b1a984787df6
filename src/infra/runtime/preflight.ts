import Redis, { Cluster } from 'ioredis';
import pg from 'pg';
import type { AppEnv, RedisNode } from '../../config/env';
import { describeTarget } from './target';

const TIMEOUT_MS = 5_000;

/** A dependency the service cannot start without, named by the variable an operator has to fix. */
export class DependencyError extends Error {
  constructor(
    readonly variable: string,
    readonly target: string,
    readonly reason: unknown,
  ) {
    super(
      `${variable} (${target}) is unreachable: ${reason instanceof Error ? reason.message : String(reason)}`,
    );
  }
}

async function checkPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkRedis(url: string): Promise<void> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    // A single-server client on a Cluster node would fail every key of another node's slots (MOVED): say so now.
    const info = await client.info('cluster');
    if (/cluster_enabled:1/.test(info))
      throw new Error('this is a Redis Cluster node: list the nodes in REDIS_CLUSTER_NODES instead');
  } finally {
    // After a failed connect the client has ended and its socket is closed: disconnecting then would wait 2 s (a
    // timer that kept the process alive) for a close that already happened.
    if (client.status !== 'end') client.disconnect();
  }
}

async function checkRedisCluster(nodes: RedisNode[]): Promise<void> {
  const client = new Cluster(nodes, {
    lazyConnect: true,
    clusterRetryStrategy: () => null,
    enableOfflineQueue: false,
    redisOptions: { connectTimeout: TIMEOUT_MS, maxRetriesPerRequest: 0 },
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    // Connected means the slot map was read; the cluster must also serve all of it.
    const info = (await client.cluster('INFO')) as string;
    if (!/cluster_state:ok/.test(info)) throw new Error('cluster_state is not ok');
  } finally {
    client.disconnect();
  }
}

const describeNodes = (nodes: RedisNode[]) => nodes.map((n) => `${n.host}:${n.port}`).join(',');

async function checkJwks(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}

/**
 * Checks each outside dependency once before the application boots, so a failure names its variable instead of
 * surfacing as `ECONNREFUSED 127.0.0.1:1` from deep inside a module.
 */
export async function preflight(env: AppEnv): Promise<void> {
  const cluster = env.redisClusterNodes.length > 0;
  const checks: [string, string | undefined, () => Promise<void>][] = [
    ['DATABASE_URL', describeTarget(env.databaseUrl), () => checkPostgres(env.databaseUrl)],
    cluster
      ? [
          'REDIS_CLUSTER_NODES',
          describeNodes(env.redisClusterNodes),
          () => checkRedisCluster(env.redisClusterNodes),
        ]
      : ['REDIS_URL', describeTarget(env.redisUrl), () => checkRedis(env.redisUrl)],
    [
      'OIDC_JWKS_URL',
      env.authProvider === 'oidc' && env.oidc.jwksUrl ? describeTarget(env.oidc.jwksUrl) : undefined,
      () => checkJwks(env.oidc.jwksUrl as string),
    ],
  ];
  for (const [variable, target, check] of checks) {
    if (target === undefined) continue;
    try {
      await check();
    } catch (e) {
      throw new DependencyError(variable, target, e);
    }
  }
}
