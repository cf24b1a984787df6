import pg from 'pg';
import type { AppEnv } from '../../config/env';
import { DependencyError } from './dependency-error';
import { checkRedis } from './redis-preflight';
import { describeRedisTarget, describeTarget } from './target';

export { DependencyError } from './dependency-error';

const TIMEOUT_MS = 5_000;

async function checkPostgres(url: string, timeoutMs: number): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function checkJwks(url: string, timeoutMs: number): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}

/**
 * Checks each outside dependency once before the application boots, so a failure names its variable and what is
 * wrong (unreachable, a refused password, an untrusted certificate) instead of surfacing as a hang, a stack or
 * `ECONNREFUSED 127.0.0.1:1` from deep inside a module. `timeoutMs` bounds each connection attempt.
 */
export async function preflight(env: AppEnv, { timeoutMs = TIMEOUT_MS } = {}): Promise<void> {
  // Redis names its own variable: the password, a TLS file or the URL, depending on what failed.
  const checks: [string, string | undefined, () => Promise<void>][] = [
    ['DATABASE_URL', describeTarget(env.databaseUrl), () => checkPostgres(env.databaseUrl, timeoutMs)],
    [
      env.redisClusterNodes.length > 0 ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL',
      describeRedisTarget(env),
      () => checkRedis(env, timeoutMs),
    ],
    [
      'OIDC_JWKS_URL',
      env.authProvider === 'oidc' && env.oidc.jwksUrl ? describeTarget(env.oidc.jwksUrl) : undefined,
      () => checkJwks(env.oidc.jwksUrl as string, timeoutMs),
    ],
  ];
  for (const [variable, target, check] of checks) {
    if (target === undefined) continue;
    try {
      await check();
    } catch (e) {
      if (e instanceof DependencyError) throw e;
      throw new DependencyError(variable, target, e);
    }
  }
}
