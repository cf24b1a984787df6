import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Cluster } from 'ioredis';
import { runCli } from '../../../src/cli/run-cli';
import type { AppEnv } from '../../../src/config/env';
import { redisKeys } from '../../../src/infra/redis/keys';
import { REDIS_HEALTH, type RedisHealth } from '../../../src/infra/redis/redis-health';
import { DependencyError, preflight } from '../../../src/infra/runtime/preflight';
import { clientResult, signed, submit } from '../results/result-factory';
import { DAY, eligible } from '../leaderboards/support';
import {
  ACL_USER,
  DEFAULT_PASSWORD,
  hostPort,
  redisEnvFrom,
  startSecuredRedis,
  type SecuredRedis,
} from '../../support/managed-redis';
import { keysMatching } from '../../support/redis-keys';
import { createTestApp, type TestApp } from '../../support/test-app';

/**
 * A managed Redis (password, ACL user, TLS with a private CA) reached through REDIS_URL (`rediss://`) and through
 * REDIS_CLUSTER_NODES with REDIS_USERNAME, REDIS_PASSWORD and REDIS_TLS*: the app and the CLI work on it, and the
 * start-up preflight names what is wrong instead of hanging. Servers: test/support/managed-redis.ts.
 */
let redis: SecuredRedis;
beforeAll(async () => {
  redis = await startSecuredRedis();
});
afterAll(() => redis?.stop());

const WRONG = 'not-the-password-7c1e';
const SECRETS = [DEFAULT_PASSWORD, ACL_USER.password, WRONG];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where the preflight says Redis is: the URL without credentials, or the seed nodes. */
const targetOf = (env: AppEnv) =>
  env.redisClusterNodes.length > 0
    ? env.redisClusterNodes.map(hostPort).join(',')
    : `${new URL(env.redisUrl).protocol}//${new URL(env.redisUrl).host}`;

/** The failures a deployment must name: its variables, the variable and problem expected, and the reason. */
type Failure = [string, () => Record<string, string>, string, string, RegExp];

interface Deployment {
  name: string;
  /** The environment that reaches it. */
  variables(): Record<string, string>;
  /** How the CLI prints it. */
  target(): string;
  failures: Failure[];
}

const single: Deployment = {
  name: 'one server: REDIS_URL=rediss://user:password@host with REDIS_TLS_CA_FILE',
  variables: () => ({
    REDIS_URL: `rediss://${ACL_USER.name}:${ACL_USER.password}@${hostPort(redis.server)}`,
    REDIS_TLS_CA_FILE: redis.certs.caFile,
  }),
  target: () => `rediss://${hostPort(redis.server)}`,
  failures: [
    [
      'a wrong password in the URL',
      () => ({
        REDIS_URL: `rediss://:${WRONG}@${hostPort(redis.server)}`,
        REDIS_TLS_CA_FILE: redis.certs.caFile,
      }),
      'REDIS_URL',
      'was refused',
      /^WRONGPASS .*\(check REDIS_URL's user:password@\)$/,
    ],
    [
      'no password',
      () => ({ REDIS_URL: `rediss://${hostPort(redis.server)}`, REDIS_TLS_CA_FILE: redis.certs.caFile }),
      'REDIS_PASSWORD',
      'is missing',
      /^NOAUTH .*the server requires a password: set REDIS_PASSWORD, or user:password@ in REDIS_URL/,
    ],
    [
      'plain TCP to the TLS port',
      () => ({ REDIS_URL: `redis://:${DEFAULT_PASSWORD}@${hostPort(redis.server)}` }),
      'REDIS_URL',
      'needs TLS',
      /^the server speaks TLS only \(.+\): write rediss:\/\/$/,
    ],
    [
      'TLS to a plain port',
      () => ({ REDIS_URL: process.env.TEST_REDIS_URL!.replace('redis:', 'rediss:') }),
      'REDIS_URL',
      'is not TLS',
      /^the server speaks plain Redis, not TLS \(.+\): write redis:\/\/$/,
    ],
    [
      'a CA that did not sign the certificate',
      () => ({ ...single.variables(), REDIS_TLS_CA_FILE: redis.certs.otherCaFile }),
      'REDIS_TLS_CA_FILE',
      "does not trust the server's certificate",
      /self-signed certificate in certificate chain \(name the CA that signed it\)/,
    ],
    [
      'the system CAs (no CA file)',
      () => ({ REDIS_URL: single.variables().REDIS_URL! }),
      'REDIS_TLS_CA_FILE',
      'is needed',
      /^the system CAs do not trust the server's certificate: /,
    ],
    [
      'a server name the certificate does not carry',
      () => ({ ...single.variables(), REDIS_TLS_SERVERNAME: 'cache.example' }),
      'REDIS_TLS_SERVERNAME',
      "does not match the server's certificate",
      /Host: cache\.example\. is not in the cert's altnames/,
    ],
  ],
};

const cluster: Deployment = {
  name: 'a Cluster: REDIS_CLUSTER_NODES with REDIS_USERNAME, REDIS_PASSWORD, REDIS_TLS and a client certificate',
  variables: () => ({
    REDIS_CLUSTER_NODES: redis.cluster.nodes.map(hostPort).join(','),
    REDIS_USERNAME: ACL_USER.name,
    REDIS_PASSWORD: ACL_USER.password,
    REDIS_TLS: 'true',
    REDIS_TLS_CA_FILE: redis.certs.caFile,
    REDIS_TLS_CERT_FILE: redis.certs.clientCertFile,
    REDIS_TLS_KEY_FILE: redis.certs.clientKeyFile,
  }),
  target: () => `Redis Cluster ${redis.cluster.nodes.map(hostPort).join(',')} over TLS`,
  failures: [
    [
      'a wrong password',
      () => ({ ...cluster.variables(), REDIS_PASSWORD: WRONG }),
      'REDIS_PASSWORD',
      'was refused',
      /^WRONGPASS .*\(check REDIS_USERNAME and REDIS_PASSWORD\)$/,
    ],
    [
      'plain TCP (no REDIS_TLS)',
      () => ({
        REDIS_CLUSTER_NODES: cluster.variables().REDIS_CLUSTER_NODES!,
        REDIS_PASSWORD: DEFAULT_PASSWORD,
      }),
      'REDIS_TLS',
      'needs TLS',
      /^the server speaks TLS only \(.+\): set REDIS_TLS=true$/,
    ],
    [
      'a CA that did not sign the certificates',
      () => ({ ...cluster.variables(), REDIS_TLS_CA_FILE: redis.certs.otherCaFile }),
      'REDIS_TLS_CA_FILE',
      "does not trust the server's certificate",
      /self-signed certificate in certificate chain/,
    ],
    [
      'a single server as its seed',
      () => ({ ...cluster.variables(), REDIS_CLUSTER_NODES: hostPort(redis.server) }),
      'REDIS_CLUSTER_NODES',
      'names no Cluster node',
      /^no seed is a Redis Cluster node .*name a single server in REDIS_URL instead$/,
    ],
    [
      'no client certificate',
      () => {
        const { REDIS_TLS_CERT_FILE: _c, REDIS_TLS_KEY_FILE: _k, ...rest } = cluster.variables();
        return rest;
      },
      'REDIS_TLS_CERT_FILE',
      'is needed',
      /^the server requires a client certificate: /,
    ],
  ],
};

describe.each([single, cluster])('managed Redis, $name', (deployment) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...redisEnvFrom(deployment.variables()),
        rateLimit: { globalPerMinute: 1000, overrides: { leaderboardsGet: { max: 2, windowMs: 60_000 } } },
      },
    });
  });
  afterAll(() => t?.close());

  // Today's board (a UTC day start), where results of english time 15 go by default.
  const board = () =>
    redisKeys.dailyLeaderboard(t.clock.now() - (t.clock.now() % DAY), 'english', 'time', '15');

  it('serves the app: a result enters the daily board, the board reads it, rate limits count in Redis', async () => {
    expect(t.app.get<RedisHealth>(REDIS_HEALTH).available).toBe(true);
    expect(t.redis instanceof Cluster).toBe(deployment === cluster);
    const me = await eligible(t);
    const saved = await submit(
      t,
      me.uid,
      signed(clientResult({ mode: 'time', mode2: '15' }), me.uid),
      me.auth,
    );
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ dailyLeaderboardRank: 1 });
    expect(await t.redis.hexists(board().entries, me.uid)).toBe(1);

    const read = () =>
      t.request<{ data: { entries: { uid: string; rank: number }[] } }>('GET', '/leaderboards/daily', {
        query: { language: 'english', mode: 'time', mode2: '15' },
        ip: '203.0.113.9',
      });
    const first = await read();
    expect(first.status).toBe(200);
    expect(first.body.data.entries.map((e) => [e.uid, e.rank])).toEqual([[me.uid, 1]]);
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(429);
    // Counted in this Redis, not in the process (which is where counts go while Redis is unreachable).
    expect(await keysMatching(t, '*203.0.113.9*')).toContain(
      redisKeys.rateLimit('ip:203.0.113.9', 'leaderboardsGet'),
    );
  });

  it('subscribes the replicas’ channels over the same connection settings (configuration, tokens, ApeKeys)', async () => {
    const channels = [
      redisKeys.configurationChannel(),
      redisKeys.authEvictChannel(),
      redisKeys.apeKeyEvictChannel(),
    ];
    // A subscriber is a duplicate of the client: it must have kept the password and TLS settings to get here.
    const nodes = t.redis instanceof Cluster ? t.redis.nodes('master') : [t.redis];
    const counts = await Promise.all(
      nodes.map((node) => node.call('PUBSUB', 'NUMSUB', ...channels) as Promise<(string | number)[]>),
    );
    const subscribers = channels.map((_, i) =>
      counts.reduce((sum, reply) => sum + Number(reply[2 * i + 1]), 0),
    );
    expect(subscribers).toEqual([1, 1, 1]);
  });

  it('serves the CLI: prints the target without a password, and its ban reaches the board', async () => {
    const me = await eligible(t);
    const saved = await submit(
      t,
      me.uid,
      signed(clientResult({ mode: 'time', mode2: '15' }), me.uid),
      me.auth,
    );
    expect(saved.status).toBe(200);
    expect(await t.redis.hexists(board().entries, me.uid)).toBe(1);
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['users', 'ban', me.uid],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      { DATABASE_URL: t.stores.databaseUrl, LOG_LEVEL: 'silent', ...deployment.variables() },
    );
    expect({ code, out, err: err.slice(1) }).toEqual({ code: 0, out: [`banned ${me.uid}`], err: [] });
    expect(err[0]).toMatch(new RegExp(`^target: postgres://.+ and ${escape(deployment.target())}$`));
    expect(await t.redis.hexists(board().entries, me.uid)).toBe(0);
    for (const secret of SECRETS) expect(err.join('\n')).not.toContain(secret);
  });

  it('passes the start-up preflight', async () => {
    await expect(preflight({ ...t.env, authProvider: 'none' })).resolves.toBeUndefined();
  });

  it.each(deployment.failures)(
    'refuses to start on %s, naming the variable, the target and the problem',
    async (_case, variables, variable, problem, reason) => {
      const env: AppEnv = { ...t.env, authProvider: 'none', ...redisEnvFrom(variables()) };
      const error = await preflight(env, { timeoutMs: 1500 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DependencyError);
      expect(error).toMatchObject({ variable, problem, target: targetOf(env) });
      expect(String((error as DependencyError).reason)).toMatch(reason);
      for (const secret of SECRETS) expect((error as Error).message).not.toContain(secret);
    },
  );
});

describe('managed Redis: the TLS files', () => {
  const envWith = (variables: Record<string, string>): AppEnv =>
    ({
      databaseUrl: process.env.TEST_PG_ADMIN_URL,
      authProvider: 'none',
      ...redisEnvFrom(variables),
    }) as AppEnv;

  it.each([
    [
      'an unreadable CA file',
      () => '/nonexistent/ca.pem',
      'is unreadable',
      /^ENOENT: no such file or directory/,
    ],
    [
      'a CA file that holds a key',
      () => redis.certs.serverKeyFile,
      'is not a certificate',
      /BEGIN CERTIFICATE/,
    ],
  ])(
    'refuses %s before connecting, naming REDIS_TLS_CA_FILE and the file',
    async (_case, file, problem, reason) => {
      const env = envWith({ ...single.variables(), REDIS_TLS_CA_FILE: file() });
      const error = await preflight(env).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DependencyError);
      expect(error).toMatchObject({ variable: 'REDIS_TLS_CA_FILE', target: file(), problem });
      expect(String((error as DependencyError).reason)).toMatch(reason);
      // The key's contents are never echoed.
      expect((error as Error).message).not.toContain('PRIVATE KEY-----\n');
    },
  );
});

describe('managed Redis: the production start', () => {
  it('logs one JSON line naming a refused password (no stack, no password) and exits 1', async () => {
    const root = resolve(__dirname, '../../..');
    const child = spawn(
      process.execPath,
      ['--require', resolve(root, 'test/support/ts-register.js'), resolve(root, 'src/main.ts')],
      {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: process.env.TEST_PG_ADMIN_URL,
          REDIS_URL: `rediss://${ACL_USER.name}:${WRONG}@${hostPort(redis.server)}`,
          REDIS_TLS_CA_FILE: redis.certs.caFile,
          AUTH_PROVIDER: 'oidc',
          OIDC_ISSUER: 'https://issuer.example',
          OIDC_AUDIENCE: 'typing',
          OIDC_JWKS_URL: 'http://127.0.0.1:1/jwks',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((r) => child.once('exit', r));
    expect({ code, stderr }).toEqual({ code: 1, stderr: '' });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 60,
      msg: 'cannot start: REDIS_URL was refused',
      variable: 'REDIS_URL',
      target: `rediss://${hostPort(redis.server)}`,
      err: expect.stringMatching(
        /^REDIS_URL \(rediss:\/\/127\.0\.0\.1:\d+\) was refused: WRONGPASS /,
      ) as string,
    });
    expect(stdout).not.toContain(WRONG);
  }, 60_000);
});
