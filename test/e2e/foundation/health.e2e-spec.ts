import pino from 'pino';
import { Client, type Pool } from 'pg';
import type { AppEnv } from '../../../src/config/env';
import { poolOf } from '../../../src/infra/database/database';
import { gracefulShutdown } from '../../../src/infra/runtime/graceful-shutdown';
import { DependencyError, preflight } from '../../../src/infra/runtime/preflight';
import { createUser } from '../../support/factories';
import { generateKey } from '../ape-keys/support';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';

// Production serves /metrics only with a token or on its own port (docs/security.md).
const METRICS_TOKEN = 'probe-metrics-token-0123456789';
const METRICS_ENV = { metrics: { host: '127.0.0.1', token: METRICS_TOKEN } };
const METRICS_AUTH = `Bearer ${METRICS_TOKEN}`;

const silent = pino({ level: 'silent' });

describe('health probes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      configuration: { rateLimiting: { badAuthentication: { maxAttempts: 2 } } },
      env: METRICS_ENV,
    });
  });
  afterAll(() => t.close());

  it('answers /livez and /readyz with 200 when PostgreSQL and Redis are up', async () => {
    expect(await t.request('GET', '/livez')).toMatchObject({
      status: 200,
      body: { message: 'ok', data: null },
    });
    expect(await t.request('GET', '/readyz')).toMatchObject({
      status: 200,
      body: { message: 'ready', data: null },
    });
  });

  it('keeps probes and /metrics up in maintenance mode while the API answers 503', async () => {
    await t.configure({ maintenance: true });
    try {
      expect((await t.request('GET', '/')).status).toBe(503);
      expect((await t.request('GET', '/livez')).status).toBe(200);
      expect((await t.request('GET', '/readyz')).status).toBe(200);
      const metrics = await t.request('GET', '/metrics', { auth: METRICS_AUTH });
      expect(metrics.status).toBe(200);
      expect(metrics.text).toContain('http_request_duration_seconds');
    } finally {
      await t.configure({ maintenance: false });
    }
  });

  it('serves probes to an IP banned for bad authentication, without rate limiting them', async () => {
    const ip = '198.51.100.7';
    for (let i = 0; i < 3; i++) await t.request('GET', '/results', { auth: 'Bearer garbage', ip });
    expect((await t.request('GET', '/', { ip })).status).toBe(429);
    for (let i = 0; i < 150; i++) {
      const res = await t.request('GET', i % 2 ? '/livez' : '/readyz', { ip });
      expect(res.status).toBe(200);
    }
  });

  it("reports the token and ApeKey caches' hits and misses in /metrics", async () => {
    const lookups = async (cache: string, result: string) => {
      const text = (await t.request('GET', '/metrics', { auth: METRICS_AUTH })).text;
      const line = new RegExp(`cache_lookups_total\\{cache="${cache}",result="${result}"\\} (\\d+)`).exec(
        text,
      );
      return Number(line?.[1] ?? NaN);
    };
    const user = await createUser(t.db);
    const auth = await t.bearer(user.uid);
    const [tokenHits, tokenMisses] = [await lookups('token', 'hit'), await lookups('token', 'miss')];
    // First use of a token misses, the next two hit.
    for (let i = 0; i < 3; i++) expect((await t.request('GET', '/users', { auth })).status).toBe(200);
    expect(await lookups('token', 'miss')).toBe(tokenMisses + 1);
    expect(await lookups('token', 'hit')).toBe(tokenHits + 2);

    const key = (await generateKey(t, auth)).apeKey;
    const [keyHits, keyMisses] = [await lookups('apeKey', 'hit'), await lookups('apeKey', 'miss')];
    for (let i = 0; i < 2; i++) {
      expect((await t.request('GET', '/users/streak', { auth: `ApeKey ${key}` })).status).toBe(200);
    }
    expect(await lookups('apeKey', 'miss')).toBe(keyMisses + 1);
    expect(await lookups('apeKey', 'hit')).toBe(keyHits + 1);
  });

  it('counts submissions by outcome, 429s and bad authentication in /metrics', async () => {
    const user = await createUser(t.db);
    const auth = await t.bearer(user.uid);
    await t.request('POST', '/results', { auth, body: { result: { wpm: 'fast' } }, ip: '198.51.100.20' });
    await t.request('POST', '/results', { body: {}, ip: '198.51.100.21' });
    await t.db
      .insertInto('leaderboard_job_runs')
      .values({
        job: 'rebuild',
        period: '1',
        finished_at: 1_800_000_000_000,
        details: JSON.stringify({ ms: 1500 }),
      })
      .execute();
    const text = (await t.request('GET', '/metrics', { auth: METRICS_AUTH })).text;
    expect(text).toMatch(/result_submissions_total\{outcome="422"\} 1\b/);
    expect(text).toMatch(/result_submissions_total\{outcome="401"\} 1\b/);
    expect(text).toMatch(/http_bad_authentication_total\{status="401"\} [1-9]/);
    expect(text).toMatch(/http_rate_limited_total\{route="\/"\} [1-9]/);
    expect(text).toMatch(/job_last_success_timestamp_seconds\{job="rebuild"\} 1800000000\b/);
    expect(text).toMatch(/job_last_duration_seconds\{job="rebuild"\} 1.5\b/);
    expect(text).toMatch(/pg_pool_connections [1-9]/);
    expect(text).toMatch(/pg_pool_idle_connections \d/);
    expect(text).toMatch(/pg_pool_waiting_requests 0/);
  });
});

describe('readiness when a dependency fails', () => {
  let t: TestApp;
  let admin: Client;
  let database: string;

  beforeAll(async () => {
    t = await createTestApp({ env: METRICS_ENV });
    database = new URL(t.stores.databaseUrl).pathname.slice(1);
    admin = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS true`);
    await admin.end();
    await t.close();
  });

  it('reports Redis down as 503 naming redis, while /livez stays 200', async () => {
    t.redis.disconnect();
    const res = await t.request('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: expect.stringMatching(/^Not ready: redis: /), data: null });
    expect((await t.request('GET', '/livez')).status).toBe(200);
    await t.redis.connect();
    expect((await t.request('GET', '/readyz')).status).toBe(200);
  });

  it('reports PostgreSQL refusing connections as 503 naming postgres and counts the pool error', async () => {
    // A checked-in (idle) pool connection to terminate: its loss is the pool 'error' event that gets counted.
    expect((await t.request('GET', '/readyz')).status).toBe(200);
    // Its loss reaches the pool as an 'error' event only while it sits idle: a request that checked it out first would
    // get the error itself. So wait for the event (or 5 s) before the next request.
    const pool = poolOf(t.db) as Pool;
    let lost: NodeJS.Timeout | undefined;
    const idleLost = new Promise<boolean>((resolve) => {
      pool.once('error', () => resolve(true));
      lost = setTimeout(() => resolve(false), 5000);
    });
    await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [
      database,
    ]);
    const lostIdle = await idleLost;
    clearTimeout(lost);
    expect(lostIdle).toBe(true);
    const res = await t.request('GET', '/readyz');
    expect(res.status).toBe(503);
    expect(res.body.message).toMatch(/^Not ready: postgres: /);
    expect(res.body.message).not.toContain('redis');
    expect((await t.request('GET', '/livez')).status).toBe(200);
    await admin.query(`ALTER DATABASE "${database}" WITH ALLOW_CONNECTIONS true`);
    // The pool recovers by itself; on a loaded machine its first new connection may take longer than the probe's
    // 1 s budget, so give it a few probes (each one is a real check) rather than exactly one.
    let ready = 0;
    for (let i = 0; i < 10 && ready !== 200; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      ready = (await t.request('GET', '/readyz')).status;
    }
    expect(ready).toBe(200);
    const text = (await t.request('GET', '/metrics', { auth: METRICS_AUTH })).text;
    expect(text).toMatch(/dependency_errors_total\{dependency="postgres"\} [1-9]/);
  });
});

describe('graceful shutdown', () => {
  it('turns /readyz to 503 for the grace period, keeps /livez, then closes and exits 0', async () => {
    const t = await createTestApp();
    const exits: number[] = [];
    const shutdown = gracefulShutdown(t.app, { graceMs: 400, log: silent, exit: (code) => exits.push(code) });
    const done = shutdown('SIGTERM');
    const during = await t.request('GET', '/readyz');
    expect(during.status).toBe(503);
    expect(during.body.message).toBe('Not ready: draining');
    expect((await t.request('GET', '/livez')).status).toBe(200);
    expect(exits).toEqual([]);
    await done;
    expect(exits).toEqual([0]);
    // Closed: the pool is gone.
    await expect(t.db.selectFrom('users').select('uid').execute()).rejects.toThrow();
  });
});

describe('start-up preflight', () => {
  let t: TestApp;
  let jwks: StubServer;

  beforeAll(async () => {
    t = await createTestApp();
    jwks = await startStubServer(() => ({ status: 200, json: { keys: [] } }));
  });
  afterAll(async () => {
    await jwks.close();
    await t.close();
  });

  const envWith = (overrides: Partial<AppEnv>): AppEnv => ({
    ...t.env,
    authProvider: 'oidc',
    oidc: { ...t.env.oidc, jwksUrl: `${jwks.url}/jwks` },
    ...overrides,
  });

  it('passes when every dependency answers', async () => {
    await expect(preflight(envWith({}))).resolves.toBeUndefined();
  });

  it.each([
    ['DATABASE_URL', { databaseUrl: 'postgres://u:secret@127.0.0.1:1/x' }, 'postgres://127.0.0.1:1/x'],
    ['REDIS_URL', { redisUrl: 'redis://127.0.0.1:1' }, 'redis://127.0.0.1:1'],
    [
      'OIDC_JWKS_URL',
      { oidc: { issuer: 'i', audience: 'a', jwksUrl: 'http://127.0.0.1:1/jwks' } },
      'http://127.0.0.1:1/jwks',
    ],
  ] as const)(
    'names %s (without credentials) when it is unreachable',
    async (variable, overrides, target) => {
      const error = await preflight(envWith(overrides)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DependencyError);
      expect(error).toMatchObject({ variable, target });
      expect((error as Error).message).toMatch(new RegExp(`^${variable} \\(.+\\) is unreachable: `));
      expect((error as Error).message).not.toContain('secret');
    },
  );

  it('leaves no timer behind when a store is unreachable (nothing holds the process up after it)', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    await expect(preflight(envWith({ redisUrl: 'redis://127.0.0.1:1' }))).rejects.toThrow(DependencyError);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(timers()).toBeLessThanOrEqual(before);
  });
});
