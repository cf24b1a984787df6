import Redis from 'ioredis';
import pg from 'pg';
import type { AppEnv } from '../../config/env';
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
  } finally {
    client.disconnect();
  }
}

async function checkJwks(url: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}

/**
 * Checks each outside dependency once before the application boots, so a failure names its variable instead of
 * surfacing as `ECONNREFUSED 127.0.0.1:1` from deep inside a module.
 */
export async function preflight(env: AppEnv): Promise<void> {
  const checks: [string, string | undefined, (url: string) => Promise<void>][] = [
    ['DATABASE_URL', env.databaseUrl, checkPostgres],
    ['REDIS_URL', env.redisUrl, checkRedis],
    ['OIDC_JWKS_URL', env.authProvider === 'oidc' ? env.oidc.jwksUrl : undefined, checkJwks],
  ];
  for (const [variable, url, check] of checks) {
    if (url === undefined) continue;
    try {
      await check(url);
    } catch (e) {
      throw new DependencyError(variable, describeTarget(url), e);
    }
  }
}
