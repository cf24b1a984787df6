import { MESSAGES } from '../../../src/common/app-error';
import { STORE_UNAVAILABLE_MESSAGE } from '../../../src/common/filters/store-errors';
import { BOARDS_UNAVAILABLE } from '../../../src/modules/leaderboards/board-availability';
import { startRedisServer, type RedisServerHandle } from '../../../src/infra/embedded/redis-server';
import { createUser } from '../../support/factories';
import { createTestStores } from '../../support/stores';
import { createTestApp, type TestApp, type TestResponse } from '../../support/test-app';
import { boardResult, signed, type SubmitData } from '../results/result-factory';

interface Board {
  entries: { uid: string; wpm?: number; totalXp?: number }[];
}

const NOON = Date.UTC(2026, 10, 18, 12);
const USERS = 6;

// Redis stopped and started again (empty: it keeps nothing on disk) in the middle of a stream of submissions, on a
// redis-server of this test's own so no other test file sees the outage.
describe('Redis outage during result submissions', () => {
  let redis: RedisServerHandle;
  let t: TestApp;
  let users: { uid: string; auth: string }[];
  const accepted: { uid: string; wpm: number; data: SubmitData }[] = [];
  const statuses: number[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    const stores = { ...(await createTestStores()), redisUrl: redis.url };
    t = await createTestApp({
      stores,
      now: NOON,
      env: { rateLimit: { globalPerMinute: 100_000, overrides: { resultsAdd: { max: 10_000 } } } },
      configuration: {
        users: { xp: { enabled: true, gainMultiplier: 1, maxDailyBonus: 100, minDailyBonus: 5 } },
      },
    });
    users = await Promise.all(
      Array.from({ length: USERS }, async () => {
        const { uid } = await createUser(t.db, { timeTyping: 10_000 });
        return { uid, auth: await t.bearer(uid) };
      }),
    );
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  /** One submission per user at once, then the clock moves past the spacing rule. */
  async function round(wpmBase: number): Promise<TestResponse<{ data: SubmitData }>[]> {
    const responses = await Promise.all(
      users.map(({ uid, auth }, i) => {
        const wpm = wpmBase + i;
        const body = { result: signed(boardResult({ wpm, rawWpm: wpm + 1, acc: 97 }), uid) };
        return t.request<{ data: SubmitData }>('POST', '/results', { auth, body }).then((res) => {
          statuses.push(res.status);
          if (res.status === 200) accepted.push({ uid, wpm, data: res.body.data });
          return res;
        });
      }),
    );
    t.clock.advance(20_000);
    return responses;
  }

  const daily = () =>
    t.request<{ data: Board }>('GET', '/leaderboards/daily', {
      query: { language: 'english', mode: 'time', mode2: '15' },
    });
  const weekly = () => t.request<{ data: Board }>('GET', '/leaderboards/xp/weekly');

  it('keeps accepting results, answers board reads 503, and the boards catch up when Redis returns', async () => {
    const before = await round(60);
    expect(before.map((r) => r.status)).toEqual(users.map(() => 200));
    for (const res of before) {
      expect(res.body.data).toHaveProperty('dailyLeaderboardRank');
      expect(res.body.data).toHaveProperty('weeklyXpLeaderboardRank');
    }

    // Stopped while a round is in flight: some of its board writes fail half-way.
    const inFlight = round(90);
    await redis.stop();
    await inFlight;
    const during = [...(await round(120)), ...(await round(70))];
    expect(during.map((r) => r.status)).toEqual(during.map(() => 200));
    for (const res of during) {
      expect(res.body.data).not.toHaveProperty('dailyLeaderboardRank');
      expect(res.body.data).not.toHaveProperty('weeklyXpLeaderboardRank');
      expect(res.body.data.xp).toBeGreaterThan(0);
    }

    const started = Date.now();
    const [dailyDown, weeklyDown, rankDown, status] = await Promise.all([
      daily(),
      weekly(),
      t.request('GET', '/leaderboards/daily/rank', {
        auth: users[0]!.auth,
        query: { language: 'english', mode: 'time', mode2: '15' },
      }),
      t.request('GET', '/'),
    ]);
    // Answered at once, not after the Redis command timeout (2 s).
    expect(Date.now() - started).toBeLessThan(1900);
    for (const res of [dailyDown, weeklyDown, rankDown]) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: BOARDS_UNAVAILABLE, data: null });
    }
    expect(status.status).toBe(200);

    // Back, empty: everything on the boards now comes from the catch-up (nothing survived in Redis).
    redis = await startRedisServer({ port: redis.port });
    const after = await waitFor(async () => {
      const res = await daily();
      return res.status === 200 && res.body.data.entries.length === USERS ? res : null;
    });
    await round(65);

    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    // Every acknowledged result is stored exactly once, and nothing else is.
    const stored = await t.db.selectFrom('results').select(['id', 'uid', 'xp']).execute();
    expect(stored.map((r) => r.id).sort()).toEqual(accepted.map((a) => a.data.insertedId).sort());
    for (const a of accepted) {
      expect(stored.find((r) => r.id === a.data.insertedId)?.xp).toBe(a.data.xp);
    }

    // The daily board holds each user's best result of the day, the weekly board all the XP they earned.
    const best = (uid: string) => Math.max(...accepted.filter((a) => a.uid === uid).map((a) => a.wpm));
    const xpOf = (uid: string) =>
      accepted.filter((a) => a.uid === uid).reduce((sum, a) => sum + a.data.xp, 0);
    const dailyNow = (await daily()).body.data.entries;
    expect(Object.fromEntries(dailyNow.map((e) => [e.uid, e.wpm]))).toEqual(
      Object.fromEntries(users.map(({ uid }) => [uid, best(uid)])),
    );
    expect(after.body.data.entries.map((e) => e.wpm)).toEqual(dailyNow.map((e) => e.wpm));
    const weeklyNow = await waitFor(async () => {
      const res = await weekly();
      const totals = Object.fromEntries(res.body.data.entries.map((e) => [e.uid, e.totalXp]));
      return users.every(({ uid }) => totals[uid] === xpOf(uid)) ? totals : null;
    });
    expect(Object.keys(weeklyNow)).toHaveLength(USERS);
  }, 60_000);
});

describe('Redis outage: limits and authentication', () => {
  let redis: RedisServerHandle;
  let t: TestApp;

  beforeAll(async () => {
    redis = await startRedisServer();
    t = await createTestApp({
      stores: { ...(await createTestStores()), redisUrl: redis.url },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: { status: { max: 5 } } } },
      configuration: {
        rateLimiting: { badAuthentication: { enabled: true, maxAttempts: 3, windowSeconds: 3600 } },
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('counts rate limits and bad authentications in memory, and refuses tokens it cannot check for revocation', async () => {
    const known = await createUser(t.db);
    const knownAuth = await t.bearer(known.uid);
    expect((await t.request('GET', '/results', { auth: knownAuth, ip: '10.9.0.3' })).status).toBe(200);
    await redis.stop();

    // Route class limit (5 per minute for GET /), now per process.
    const status = [];
    for (let i = 0; i < 6; i++) status.push(await t.request('GET', '/', { ip: '10.9.0.1' }));
    expect(status.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(status[5]!.body).toEqual({ message: MESSAGES.rateLimited, data: null });

    // Bad authentications: three garbage tokens, then the address is refused even with a good token.
    const bad = [];
    for (let i = 0; i < 3; i++)
      bad.push(await t.request('GET', '/results', { auth: 'Bearer nope', ip: '10.9.0.2' }));
    expect(bad.map((r) => r.status)).toEqual([401, 401, 401]);
    const banned = await t.request('GET', '/results', { auth: knownAuth, ip: '10.9.0.2' });
    expect(banned.status).toBe(429);
    expect(banned.body.message).toBe(MESSAGES.badAuthBanned);
    // An anonymous request checks the ban and counts its limits in one script; in memory the ban holds too.
    const bannedAnonymous = await t.request('GET', '/', { ip: '10.9.0.2' });
    expect(bannedAnonymous.status).toBe(429);
    expect(bannedAnonymous.body.message).toBe(MESSAGES.badAuthBanned);

    // A token verified before the outage is cached and keeps working; a token never seen needs the revocation
    // marker in Redis: fail closed with 503 rather than accept a possibly revoked token.
    expect((await t.request('GET', '/results', { auth: knownAuth, ip: '10.9.0.3' })).status).toBe(200);
    const stranger = await createUser(t.db);
    const unchecked = await t.request('GET', '/results', {
      auth: await t.bearer(stranger.uid),
      ip: '10.9.0.4',
    });
    expect(unchecked.status).toBe(503);
    expect(unchecked.body).toEqual({ message: STORE_UNAVAILABLE_MESSAGE, data: null });

    // The in-memory counter weighs failures by the configured penalty too: 1.5 points each, two reach 3.
    await t.configure({ rateLimiting: { badAuthentication: { penalty: 1.5 } } });
    for (let i = 0; i < 2; i++)
      expect((await t.request('GET', '/results', { auth: 'Bearer nope', ip: '10.9.0.5' })).status).toBe(401);
    expect((await t.request('GET', '/results', { auth: knownAuth, ip: '10.9.0.5' })).status).toBe(429);
  }, 30_000);
});

async function waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
