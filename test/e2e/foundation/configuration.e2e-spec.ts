import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerConfiguration } from '../../../src/config/server-configuration.schema';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';

const ADMIN_ENV = { rateLimit: { globalPerMinute: 10_000, overrides: { adminLimit: { max: 10_000 } } } };

describe('server configuration', () => {
  let t: TestApp;
  let adminAuth: string;

  beforeAll(async () => {
    // One admin patches many times in a row; adminLimit itself (1 per 5 s) is tested in rate-limit.e2e-spec.ts.
    t = await createTestApp({ env: ADMIN_ENV });
    const admin = await createUser(t.db, { permissions: ['admin'] });
    adminAuth = await t.bearer(admin.uid);
  });
  afterAll(() => t.close());

  const get = async () =>
    (await t.request<{ data: ServerConfiguration }>('GET', '/configuration')).body
      .data as ServerConfiguration;

  it('serves the defaults of docs/decisions/0013-server-configuration.md publicly', async () => {
    const res = await t.request('GET', '/configuration');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Configuration retrieved');
    const config = res.body.data as ServerConfiguration;
    expect(config.users.xp).toEqual({
      enabled: false,
      funboxBonus: 0,
      gainMultiplier: 0,
      maxDailyBonus: 0,
      minDailyBonus: 0,
      streak: { enabled: false, maxStreakDays: 0, maxStreakMultiplier: 0 },
    });
    expect(config.leaderboards.minTimeTyping).toBe(7200);
    expect(config.results.limits).toEqual({ regularUser: 1000, premiumUser: 10000 });
    expect(config.results.maxBatchSize).toBe(1000);
    expect(config.results.savingEnabled).toBe(true);
    expect(config.apeKeys).toMatchObject({ endpointsEnabled: true, acceptKeys: true, maxKeysPerUser: 5 });
    expect(config.users.signUp).toBe(true);
    expect(config.users.profiles.enabled).toBe(true);
    expect(config.users.inbox).toEqual({ enabled: true, maxMail: 50 });
    expect(config.users.premium.enabled).toBe(false);
    expect(config.connections).toEqual({ enabled: true, maxPerUser: 100 });
    expect(config.dailyLeaderboards).toMatchObject({
      enabled: true,
      maxResults: 250,
      leaderboardExpirationTimeInDays: 2,
      validModeRules: [
        { language: 'english', mode: 'time', mode2: '15' },
        { language: 'english', mode: 'time', mode2: '60' },
      ],
    });
    expect(config.leaderboards.weeklyXp).toMatchObject({ enabled: true, expirationTimeInDays: 15 });
  });

  describe('PATCH /configuration', () => {
    it('needs authentication and the admin permission in production', async () => {
      expect((await t.request('PATCH', '/configuration', { body: { configuration: {} } })).status).toBe(401);
      const plain = await createUser(t.db);
      const res = await t.request('PATCH', '/configuration', {
        auth: await t.bearer(plain.uid),
        body: { configuration: {} },
      });
      expect(res.status).toBe(403);
    });

    it('deep-merges a partial document and keeps its siblings', async () => {
      const res = await t.request('PATCH', '/configuration', {
        auth: adminAuth,
        body: {
          configuration: {
            users: { xp: { enabled: true, gainMultiplier: 1.5 } },
            results: { maxBatchSize: 200 },
          },
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Configuration updated', data: null });
      const config = await get();
      expect(config.users.xp.enabled).toBe(true);
      expect(config.users.xp.gainMultiplier).toBe(1.5);
      expect(config.users.xp.streak.enabled).toBe(false);
      expect(config.users.signUp).toBe(true);
      expect(config.results.maxBatchSize).toBe(200);
      expect(config.results.limits.regularUser).toBe(1000);
    });

    it('replaces arrays whole', async () => {
      const rules = [{ language: 'spanish', mode: 'words', mode2: '10' }];
      await t.request('PATCH', '/configuration', {
        auth: adminAuth,
        body: { configuration: { dailyLeaderboards: { validModeRules: rules } } },
      });
      expect((await get()).dailyLeaderboards.validModeRules).toEqual(rules);
    });

    it.each([
      [
        'a wrong type',
        { users: { xp: { enabled: 'yes' } } },
        '"configuration.users.xp.enabled" Expected boolean, received string',
      ],
      [
        'an unknown key',
        { users: { xp: { turbo: true } } },
        '"configuration.users.xp" Unrecognized key(s) in object: \'turbo\'',
      ],
      ['an unknown group', { nope: {} }, '"configuration" Unrecognized key(s) in object: \'nope\''],
      [
        'a number below its minimum',
        { results: { maxBatchSize: 0 } },
        '"configuration.results.maxBatchSize" Number must be greater than or equal to 1',
      ],
      [
        'a float for an integer',
        { apeKeys: { maxKeysPerUser: 1.5 } },
        '"configuration.apeKeys.maxKeysPerUser" Expected integer, received float',
      ],
      [
        'an object for a leaf',
        { maintenance: { on: true } },
        '"configuration.maintenance" Expected boolean, received object',
      ],
      [
        'an invalid array item',
        { dailyLeaderboards: { validModeRules: [{ language: 'english' }] } },
        '"configuration.dailyLeaderboards.validModeRules.0.mode" Required',
      ],
    ])('refuses %s with 422 and the problem', async (_label, configuration, message) => {
      const before = await get();
      const res = await t.request('PATCH', '/configuration', { auth: adminAuth, body: { configuration } });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors).toContain(message);
      expect(await get()).toEqual(before);
    });

    it('refuses a body without configuration or with extra keys', async () => {
      const missing = await t.request('PATCH', '/configuration', { auth: adminAuth, body: {} });
      expect(missing.status).toBe(422);
      const extra = await t.request('PATCH', '/configuration', {
        auth: adminAuth,
        body: { configuration: {}, more: 1 },
      });
      expect(extra.status).toBe(422);
      expect(extra.body.validationErrors).toEqual(["Unrecognized key(s) in object: 'more'"]);
    });

    it('reaches other replicas through Redis at once', async () => {
      const replica = await createTestApp({ stores: t.stores, env: ADMIN_ENV });
      try {
        expect((await replica.configuration.get()).users.premium.enabled).toBe(false);
        await t.request('PATCH', '/configuration', {
          auth: adminAuth,
          body: { configuration: { users: { premium: { enabled: true } } } },
        });
        const deadline = Date.now() + 2000;
        let seen = false;
        while (!seen && Date.now() < deadline) {
          seen = (await replica.configuration.get()).users.premium.enabled;
          if (!seen) await new Promise((r) => setTimeout(r, 20));
        }
        expect(seen).toBe(true);
      } finally {
        await replica.close();
        await t.configure({ users: { premium: { enabled: false } } });
      }
    });
  });

  describe('maintenance mode', () => {
    it('answers everything but the configuration routes with 503 until turned off', async () => {
      await t.configure({ maintenance: true });
      try {
        const res = await t.request('GET', '/');
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: 'Server is down for maintenance', data: null });
        expect((await t.request('GET', '/configuration')).status).toBe(200);
        const off = await t.request('PATCH', '/configuration', {
          auth: adminAuth,
          body: { configuration: { maintenance: false } },
        });
        expect(off.status).toBe(200);
        expect((await t.request('GET', '/')).status).toBe(200);
      } finally {
        await t.configure({ maintenance: false });
      }
    });
  });
});

describe('server configuration in dev mode and from SERVER_CONFIG_FILE', () => {
  it('lets anyone PATCH in dev mode', async () => {
    const t = await createTestApp({ mode: 'dev' });
    try {
      const res = await t.request('PATCH', '/configuration', {
        body: { configuration: { users: { signUp: false } } },
      });
      expect(res.status).toBe(200);
      expect((await t.configuration.get()).users.signUp).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('merges the file at start', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'config.json');
    writeFileSync(
      file,
      JSON.stringify({
        users: { xp: { enabled: true, maxDailyBonus: 500 } },
        leaderboards: { minTimeTyping: 60 },
      }),
    );
    const t = await createTestApp({ env: { serverConfigFile: file } });
    try {
      const config = (await t.request('GET', '/configuration')).body.data as ServerConfiguration;
      expect(config.users.xp).toMatchObject({ enabled: true, maxDailyBonus: 500, gainMultiplier: 0 });
      expect(config.leaderboards.minTimeTyping).toBe(60);
    } finally {
      await t.close();
    }
  });

  it('refuses to start with an invalid file, naming the problem', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cfg-')), 'config.json');
    writeFileSync(file, JSON.stringify({ users: { xp: { enabled: 'sure' } } }));
    await expect(createTestApp({ env: { serverConfigFile: file } })).rejects.toThrow(
      /SERVER_CONFIG_FILE .* is invalid:\s+"users.xp.enabled" Expected boolean, received string/,
    );
  });
});
