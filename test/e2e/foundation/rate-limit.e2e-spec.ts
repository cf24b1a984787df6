import { Cluster } from 'ioredis';
import { ProbeModule } from '../../support/probe.module';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('rate limits (Redis-backed, shared by replicas)', () => {
  let t: TestApp;
  let replica: TestApp;

  beforeAll(async () => {
    // A minute-long window: the real one (5 s) could end in the middle of a test on a busy machine.
    const env = {
      rateLimit: { globalPerMinute: 1000, overrides: { adminLimit: { max: 4, windowMs: 60_000 } } },
    };
    t = await createTestApp({ extraModules: [ProbeModule], env });
    replica = await createTestApp({ extraModules: [ProbeModule], env, stores: t.stores });
  });
  afterAll(async () => {
    await replica.close();
    await t.close();
  });

  it('sets X-RateLimit headers and counts down per caller', async () => {
    const { uid } = await createUser(t.db, { permissions: ['quoteMod'] });
    const auth = await t.bearer(uid);
    const first = await t.request('POST', '/probe/ordered', { auth, body: { name: 'a' } });
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('4');
    expect(first.headers['x-ratelimit-remaining']).toBe('3');
    expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
    const second = await t.request('POST', '/probe/ordered', { auth, body: { name: 'a' } });
    expect(second.headers['x-ratelimit-remaining']).toBe('2');
  });

  it('counts one caller across replicas and answers 429 with the spec message', async () => {
    const { uid } = await createUser(t.db, { permissions: ['quoteMod'] });
    const auth = await t.bearer(uid);
    const apps = [t, replica, t, replica];
    for (const app of apps)
      expect((await app.request('POST', '/probe/ordered', { auth, body: { name: 'a' } })).status).toBe(200);
    const limited = await replica.request('POST', '/probe/ordered', { auth, body: { name: 'a' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Request limit reached, please try again later.', data: null });
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('keeps separate budgets for different users', async () => {
    const a = await createUser(t.db, { permissions: ['quoteMod'] });
    const b = await createUser(t.db, { permissions: ['quoteMod'] });
    const authA = await t.bearer(a.uid);
    for (let i = 0; i < 4; i++)
      await t.request('POST', '/probe/ordered', { auth: authA, body: { name: 'a' } });
    expect((await t.request('POST', '/probe/ordered', { auth: authA, body: { name: 'a' } })).status).toBe(
      429,
    );
    expect(
      (await t.request('POST', '/probe/ordered', { auth: await t.bearer(b.uid), body: { name: 'a' } }))
        .status,
    ).toBe(200);
  });

  it('shares one counter between routes of the same class', async () => {
    const admin = await createUser(t.db, { permissions: ['quoteMod', 'admin'] });
    const auth = await t.bearer(admin.uid);
    for (let i = 0; i < 2; i++) await t.request('POST', '/probe/ordered', { auth, body: { name: 'a' } });
    for (let i = 0; i < 2; i++) {
      expect((await t.request('PATCH', '/configuration', { auth, body: { configuration: {} } })).status).toBe(
        200,
      );
    }
    expect((await t.request('PATCH', '/configuration', { auth, body: { configuration: {} } })).status).toBe(
      429,
    );
  });

  it("gives the admin routes the original's adminLimit by default: 1 request per 5 s", async () => {
    const plain = await createTestApp({ env: { rateLimit: { globalPerMinute: 1000, overrides: {} } } });
    try {
      const { uid } = await createUser(plain.db, { permissions: ['admin'] });
      const auth = await plain.bearer(uid);
      const first = await plain.request('GET', '/configuration/schema', { auth });
      expect(first.status).toBe(200);
      expect(first.headers['x-ratelimit-limit']).toBe('1');
      expect(Number(first.headers['x-ratelimit-reset'])).toBeLessThanOrEqual(5);
      const second = await plain.request('PATCH', '/configuration', { auth, body: { configuration: {} } });
      expect(second.status).toBe(429);
      expect(second.body).toEqual({ message: 'Request limit reached, please try again later.', data: null });
    } finally {
      await plain.close();
    }
  });

  it('counts anonymous callers by IP', async () => {
    const limitedApp = await createTestApp({
      extraModules: [ProbeModule],
      env: { rateLimit: { globalPerMinute: 3, overrides: {} } },
    });
    try {
      for (let i = 0; i < 3; i++)
        expect((await limitedApp.request('GET', '/probe/public', { ip: '10.1.1.1' })).status).toBe(200);
      const limited = await limitedApp.request('GET', '/probe/public', { ip: '10.1.1.1' });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after-global'])).toBeGreaterThan(0);
      expect((await limitedApp.request('GET', '/probe/public', { ip: '10.1.1.2' })).status).toBe(200);
    } finally {
      await limitedApp.close();
    }
  });

  it("checks an anonymous request's ban and counts its limits in one Redis command", async () => {
    const ip = '10.77.0.1';
    // On a Cluster (the e2e-cluster pass) the script runs on whichever master owns the IP's slot: watch them all.
    const servers = t.redis instanceof Cluster ? t.redis.nodes('master') : [t.redis];
    const monitors = await Promise.all(servers.map((server) => server.monitor()));
    const commands: string[][] = [];
    for (const monitor of monitors) {
      monitor.on('monitor', (_time: string, args: string[], source: string) => {
        // The commands a script runs are monitored too ("lua" source); only the client's own count here.
        if (source !== 'lua' && args.some((arg) => arg.includes(ip))) commands.push(args);
      });
    }
    try {
      expect((await t.request('GET', '/probe/public', { ip })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      for (const monitor of monitors) monitor.disconnect();
    }
    // One script call holding the ban key and the counters (before: a GET and one script per counter).
    expect(commands).toHaveLength(1);
    expect(commands[0]?.[0]?.toLowerCase()).toMatch(/^eval/);
    // Keys may carry the test app's REDIS_KEY_PREFIX (cluster pass) before them.
    expect(commands[0]).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`badauth:\\{ip:${ip.replace(/\./g, '\\.')}\\}$`)),
        expect.stringMatching(new RegExp(`rl:\\{ip:${ip.replace(/\./g, '\\.')}\\}:global$`)),
      ]),
    );
  });

  it('multiplies every limit by 100 in dev mode', async () => {
    const dev = await createTestApp({
      mode: 'dev',
      extraModules: [ProbeModule],
      env: { rateLimit: { globalPerMinute: 2, overrides: { adminLimit: { max: 1 } } } },
    });
    try {
      const { uid } = await createUser(dev.db, { permissions: ['quoteMod'] });
      for (let i = 0; i < 3; i++) {
        const res = await dev.request('POST', '/probe/ordered', { auth: `Uid ${uid}`, body: { name: 'a' } });
        expect(res.status).toBe(200);
        expect(res.headers['x-ratelimit-limit']).toBe('100');
        expect(res.headers['x-ratelimit-limit-global']).toBe('200');
      }
    } finally {
      await dev.close();
    }
  });
});

describe('bad authentication ban (per IP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      extraModules: [ProbeModule],
      configuration: { rateLimiting: { badAuthentication: { maxAttempts: 3, windowSeconds: 2 } } },
    });
  });
  afterAll(() => t.close());

  it('bans an IP after too many failed authentications, for every request, until the window passes', async () => {
    const { uid } = await createUser(t.db);
    const good = await t.bearer(uid);
    const ip = '10.9.9.9';
    const failures = [
      await t.request('GET', '/probe/bearer', { ip }),
      await t.request('GET', '/probe/bearer', { ip, auth: 'Bearer forged' }),
      await t.request('GET', '/probe/bearer', { ip, auth: await t.bearer('ghost-user') }),
    ];
    expect(failures.map((r) => r.status)).toEqual([401, 401, 404]);

    for (const request of [
      t.request('GET', '/probe/bearer', { ip, auth: good }),
      t.request('GET', '/probe/public', { ip }),
    ]) {
      const res = await request;
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ message: 'Too many bad authentication attempts', data: null });
    }
    expect((await t.request('GET', '/probe/bearer', { ip: '10.9.9.10', auth: good })).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect((await t.request('GET', '/probe/bearer', { ip, auth: good })).status).toBe(200);
  });

  it("counts nothing for a banned IP's anonymous requests: after the ban its budgets are whole", async () => {
    const ip = '10.9.9.20';
    for (let i = 0; i < 3; i++)
      expect((await t.request('GET', '/probe/bearer', { ip, auth: 'Bearer forged' })).status).toBe(401);
    for (let i = 0; i < 3; i++) {
      const banned = await t.request('GET', '/probe/public', { ip });
      expect(banned.status).toBe(429);
      expect(banned.body).toEqual({ message: 'Too many bad authentication attempts', data: null });
      expect(banned.headers['x-ratelimit-remaining-global']).toBeUndefined();
    }
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const after = await t.request('GET', '/probe/public', { ip });
    expect(after.status).toBe(200);
    // Neither the failed authentications nor the banned requests were counted: this is the window's first hit.
    expect(Number(after.headers['x-ratelimit-remaining-global'])).toBe(
      Number(after.headers['x-ratelimit-limit-global']) - 1,
    );
    const next = await t.request('GET', '/probe/public', { ip });
    expect(Number(next.headers['x-ratelimit-remaining-global'])).toBe(
      Number(after.headers['x-ratelimit-limit-global']) - 2,
    );
  });

  it('does not count failures that are not authentication failures', async () => {
    const { uid } = await createUser(t.db);
    const auth = await t.bearer(uid);
    const ip = '10.8.8.8';
    for (let i = 0; i < 5; i++) {
      expect((await t.request('GET', '/probe/admin', { ip, auth })).status).toBe(403);
      expect((await t.request('GET', '/probe/query', { ip, query: { page: -1 } })).status).toBe(400);
    }
    expect((await t.request('GET', '/probe/bearer', { ip, auth })).status).toBe(200);
  });

  it('counts malformed and unknown ApeKeys as bad authentication', async () => {
    const ip = '10.7.7.7';
    for (let i = 0; i < 3; i++) {
      expect([471, 404]).toContain(
        (
          await t.request('GET', '/probe/ape', {
            ip,
            auth:
              i % 2 ? 'ApeKey !!!' : `ApeKey ${Buffer.from('abc.' + 'x'.repeat(20)).toString('base64url')}`,
          })
        ).status,
      );
    }
    expect((await t.request('GET', '/probe/public', { ip })).status).toBe(429);
  });

  it('adds the configured penalty per failure: 1.5 points ban at the second failure of 3 points', async () => {
    await t.configure({ rateLimiting: { badAuthentication: { penalty: 1.5 } } });
    try {
      const ip = '10.5.5.5';
      expect((await t.request('GET', '/probe/bearer', { ip })).status).toBe(401);
      expect((await t.request('GET', '/probe/public', { ip })).status).toBe(200);
      expect((await t.request('GET', '/probe/bearer', { ip })).status).toBe(401);
      const banned = await t.request('GET', '/probe/public', { ip });
      expect(banned.status).toBe(429);
      expect(banned.body).toEqual({ message: 'Too many bad authentication attempts', data: null });
    } finally {
      await t.configure({ rateLimiting: { badAuthentication: { penalty: 1 } } });
    }
  });

  it('counts nothing with a zero penalty', async () => {
    await t.configure({ rateLimiting: { badAuthentication: { penalty: 0 } } });
    try {
      const ip = '10.5.5.6';
      for (let i = 0; i < 5; i++) expect((await t.request('GET', '/probe/bearer', { ip })).status).toBe(401);
      expect((await t.request('GET', '/probe/public', { ip })).status).toBe(200);
    } finally {
      await t.configure({ rateLimiting: { badAuthentication: { penalty: 1 } } });
    }
  });

  it('counts only the statuses in flaggedStatusCodes', async () => {
    await t.configure({ rateLimiting: { badAuthentication: { flaggedStatusCodes: [404] } } });
    try {
      const ip = '10.5.5.7';
      // 401s are not flagged now: any number of them leaves the IP alone.
      for (let i = 0; i < 5; i++) expect((await t.request('GET', '/probe/bearer', { ip })).status).toBe(401);
      expect((await t.request('GET', '/probe/public', { ip })).status).toBe(200);
      // 404 (a valid token of an unknown user) is.
      const ghost = await t.bearer('ghost-user');
      for (let i = 0; i < 3; i++)
        expect((await t.request('GET', '/probe/bearer', { ip, auth: ghost })).status).toBe(404);
      expect((await t.request('GET', '/probe/public', { ip })).status).toBe(429);
    } finally {
      await t.configure({
        rateLimiting: { badAuthentication: { flaggedStatusCodes: [401, 404, 470, 471] } },
      });
    }
  });

  it('can be turned off', async () => {
    await t.configure({ rateLimiting: { badAuthentication: { enabled: false } } });
    try {
      const ip = '10.6.6.6';
      for (let i = 0; i < 5; i++) expect((await t.request('GET', '/probe/bearer', { ip })).status).toBe(401);
      expect((await t.request('GET', '/probe/public', { ip })).status).toBe(200);
    } finally {
      await t.configure({ rateLimiting: { badAuthentication: { enabled: true } } });
    }
  });
});
