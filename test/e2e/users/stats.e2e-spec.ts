import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import {
  acceptTestApeKeys,
  ANY_APE_KEY,
  apeKeyFor,
  DAY_MS,
  insertActivity,
  insertPersonalBest,
} from './support';

const day = (iso: string) => Math.floor(Date.parse(`${iso}T00:00:00Z`) / DAY_MS);

describe('personal bests, stats, streak, hour offset and test activity', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      now: Date.parse('2025-01-03T15:30:00Z'),
      configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
    acceptTestApeKeys(t);
  });
  afterAll(() => t.close());

  describe('GET /users/personalBests', () => {
    let uid: string;
    let auth: string;
    beforeAll(async () => {
      ({ uid } = await createUser(t.db));
      auth = await t.bearer(uid);
      await insertPersonalBest(t, uid, { mode: 'time', mode2: '15', wpm: 120 });
      await insertPersonalBest(t, uid, { mode: 'time', mode2: '15', wpm: 110, punctuation: true });
      await insertPersonalBest(t, uid, { mode: 'time', mode2: '60', wpm: 95 });
      await insertPersonalBest(t, uid, { mode: 'zen', mode2: 'zen', wpm: 70 });
      const other = await createUser(t.db);
      await insertPersonalBest(t, other.uid, { mode: 'words', mode2: '10', wpm: 200 });
    });

    it('returns all of the caller’s personal bests by mode and mode2', async () => {
      const res = await t.request('GET', '/users/personalBests', { auth });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Personal bests retrieved');
      const data = res.body.data as Record<string, Record<string, unknown[]>>;
      expect(Object.keys(data)).toEqual(['time', 'words', 'quote', 'zen', 'custom']);
      expect(data.words).toEqual({});
      expect(data.time?.['15']).toHaveLength(2);
      expect(data.time?.['15']?.[0]).toEqual({
        acc: 98,
        consistency: 80,
        difficulty: 'normal',
        lazyMode: false,
        language: 'english',
        punctuation: false,
        numbers: false,
        raw: 123,
        wpm: 120,
        timestamp: 1_700_000_000_000,
      });
      expect(data.zen?.zen).toHaveLength(1);
    });

    it('filters by mode, and by mode2 within it (null when there is none)', async () => {
      const mode = await t.request('GET', '/users/personalBests', { auth, query: { mode: 'time' } });
      expect(Object.keys(mode.body.data as object).sort()).toEqual(['15', '60']);
      const mode2 = await t.request('GET', '/users/personalBests', {
        auth,
        query: { mode: 'time', mode2: '60' },
      });
      expect(mode2.body.data).toEqual([expect.objectContaining({ wpm: 95 })]);
      const none = await t.request('GET', '/users/personalBests', {
        auth,
        query: { mode: 'time', mode2: '30' },
      });
      expect(none.status).toBe(200);
      expect(none.body.data).toBeNull();
      const empty = await t.request('GET', '/users/personalBests', { auth, query: { mode: 'words' } });
      expect(empty.body.data).toEqual({});
    });

    it.each([
      [{ mode: 'mood' }, '"mode" '],
      [{ mode2: '15' }, '"mode2" needs mode'],
      [{ mode: 'time', mode2: 'abc' }, '"mode2" must be a number, "zen" or "custom"'],
      [{ limit: 5 }, "Unrecognized key(s) in object: 'limit'"],
    ])('refuses the query %j with 400', async (query, problem) => {
      const res = await t.request('GET', '/users/personalBests', { auth, query });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.validationErrors?.some((e) => e.startsWith(problem))).toBe(true);
    });
  });

  describe('GET /users/stats and GET /users/streak', () => {
    it('returns the typing stats', async () => {
      const user = await createUser(t.db, { timeTyping: 321.25 });
      await t.db
        .updateTable('users')
        .set({ completed_tests: 3, started_tests: 8 })
        .where('uid', '=', user.uid)
        .execute();
      const res = await t.request('GET', '/users/stats', { auth: await t.bearer(user.uid) });
      expect(res.body).toEqual({
        message: 'Personal stats retrieved',
        data: { completedTests: 3, startedTests: 8, timeTyping: 321.25 },
      });
    });

    it('returns the streak, with hourOffset once set', async () => {
      const user = await createUser(t.db);
      await t.db
        .updateTable('users')
        .set({ streak_length: 5, streak_max_length: 12, streak_last_result_at: 1234 })
        .where('uid', '=', user.uid)
        .execute();
      const auth = await t.bearer(user.uid);
      const res = await t.request('GET', '/users/streak', { auth });
      expect(res.body).toEqual({
        message: 'Streak data retrieved',
        data: { length: 5, maxLength: 12, lastResultTimestamp: 1234 },
      });
      await t.request('PATCH', '/users/streak/hourOffset', { auth, body: { hourOffset: -4 } });
      const after = await t.request('GET', '/users/streak', { auth });
      expect(after.body.data).toEqual({
        length: 5,
        maxLength: 12,
        lastResultTimestamp: t.clock.now(),
        hourOffset: -4,
      });
    });
  });

  describe('hour offset (PATCH /users/streak/hourOffset, POST /users/streakHourOffset, POST /users/setStreakHourOffset)', () => {
    it.each([
      ['PATCH', '/users/streak/hourOffset'],
      ['POST', '/users/streakHourOffset'],
      // The original platform's path (docs/decisions/0039-original-routes-and-aliases.md: an alias).
      ['POST', '/users/setStreakHourOffset'],
    ])('%s %s sets it once and resets lastResultTimestamp to now', async (method, url) => {
      const user = await createUser(t.db);
      await t.db.updateTable('users').set({ streak_last_result_at: 5 }).where('uid', '=', user.uid).execute();
      const auth = await t.bearer(user.uid);
      const res = await t.request(method, url, { auth, body: { hourOffset: 5.5 } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Streak hour offset set', data: null });
      const row = await t.db
        .selectFrom('users')
        .select(['streak_hour_offset', 'streak_last_result_at'])
        .where('uid', '=', user.uid)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ streak_hour_offset: 5.5, streak_last_result_at: t.clock.now() });

      t.clock.advance(1000);
      for (const [m, u] of [
        ['PATCH', '/users/streak/hourOffset'],
        ['POST', '/users/streakHourOffset'],
        ['POST', '/users/setStreakHourOffset'],
      ]) {
        const again = await t.request(m as string, u as string, { auth, body: { hourOffset: 1 } });
        expect(again.status).toBe(403);
        expect(again.body).toEqual({ message: 'Streak hour offset already set', data: null });
      }
      const unchanged = await t.db
        .selectFrom('users')
        .select(['streak_hour_offset', 'streak_last_result_at'])
        .where('uid', '=', user.uid)
        .executeTakeFirstOrThrow();
      expect(unchanged).toEqual({ streak_hour_offset: 5.5, streak_last_result_at: t.clock.now() - 1000 });
    });

    it('sets it once under parallel requests', async () => {
      const user = await createUser(t.db);
      const auth = await t.bearer(user.uid);
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map((hourOffset) =>
          t.request('PATCH', '/users/streak/hourOffset', { auth, body: { hourOffset } }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403, 403]);
    });

    it.each([-11, 12, 0, 0.5, -10.5])('accepts %p', async (hourOffset) => {
      const user = await createUser(t.db);
      const res = await t.request('PATCH', '/users/streak/hourOffset', {
        auth: await t.bearer(user.uid),
        body: { hourOffset },
      });
      expect(res.status).toBe(200);
    });

    it.each([
      [{ hourOffset: -11.5 }, '"hourOffset" must not be less than -11'],
      [{ hourOffset: 12.5 }, '"hourOffset" must not be greater than 12'],
      [{ hourOffset: 1.25 }, '"hourOffset" must be a multiple of 0.5'],
      [{ hourOffset: '3' }, '"hourOffset" must be a number conforming to the specified constraints'],
      [{}, '"hourOffset" must be a number conforming to the specified constraints'],
      [{ hourOffset: 1, extra: true }, "Unrecognized key(s) in object: 'extra'"],
    ])('refuses %j with 422', async (body, problem) => {
      const user = await createUser(t.db);
      const res = await t.request('POST', '/users/streakHourOffset', {
        auth: await t.bearer(user.uid),
        body,
      });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toContain(problem);
      const row = await t.db
        .selectFrom('users')
        .select('streak_hour_offset')
        .where('uid', '=', user.uid)
        .executeTakeFirst();
      expect(row?.streak_hour_offset).toBeNull();
    });
  });

  describe('GET /users/testActivity (premium)', () => {
    it('answers 503 Premium features are disabled while premium is off server-wide', async () => {
      const user = await createUser(t.db, { premiumExpiresAt: -1 });
      const res = await t.request('GET', '/users/testActivity', { auth: await t.bearer(user.uid) });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'Premium features are disabled', data: null });
    });

    it('serves premium users the activity by year, refuses others with 503 User does not have premium', async () => {
      await t.configure({ users: { premium: { enabled: true } } });
      try {
        const premium = await createUser(t.db, { premiumExpiresAt: t.clock.now() + DAY_MS });
        await insertActivity(t, premium.uid, day('2024-12-31'), 3);
        await insertActivity(t, premium.uid, day('2025-01-02'), 4);
        const res = await t.request('GET', '/users/testActivity', { auth: await t.bearer(premium.uid) });
        expect(res.status).toBe(200);
        expect(res.body.message).toBe('Test activity data retrieved');
        const data = res.body.data as Record<string, number[]>;
        expect(Object.keys(data).sort()).toEqual(['2024', '2025']);
        expect(data['2024']).toHaveLength(366);
        expect(data['2024']?.[365]).toBe(3);
        expect(data['2025']).toEqual([0, 4]);

        for (const expiresAt of [null, t.clock.now() - 1]) {
          const plain = await createUser(t.db, { premiumExpiresAt: expiresAt });
          const refused = await t.request('GET', '/users/testActivity', { auth: await t.bearer(plain.uid) });
          expect(refused.status).toBe(503);
          expect(refused.body.message).toBe('User does not have premium');
        }
      } finally {
        await t.configure({ users: { premium: { enabled: false } } });
      }
    });
  });

  describe('GET /users/currentTestActivity', () => {
    it('covers the last 372 days across the year boundary, only the caller’s', async () => {
      const user = await createUser(t.db);
      const other = await createUser(t.db);
      await insertActivity(t, user.uid, day('2025-01-03'), 2);
      await insertActivity(t, user.uid, day('2024-12-31'), 7);
      await insertActivity(t, user.uid, day('2023-12-29'), 1); // first day of the window (2024 is a leap year)
      await insertActivity(t, user.uid, day('2023-12-28'), 50); // one day too old
      await insertActivity(t, other.uid, day('2025-01-03'), 99);
      const res = await t.request('GET', '/users/currentTestActivity', { auth: await t.bearer(user.uid) });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Current test activity data retrieved');
      const data = res.body.data as { testsByDays: number[]; lastDay: number };
      expect(data.lastDay).toBe(Date.parse('2025-01-03T00:00:00Z'));
      expect(data.testsByDays).toHaveLength(372);
      expect(data.testsByDays[371]).toBe(2);
      expect(data.testsByDays[368]).toBe(7);
      expect(data.testsByDays[0]).toBe(1);
      expect(data.testsByDays.reduce((a, b) => a + b, 0)).toBe(10);
    });
  });

  describe('authentication', () => {
    const apeKeyRoutes = [
      '/users/personalBests',
      '/users/stats',
      '/users/streak',
      '/users/tags',
      '/users/currentTestActivity',
    ];

    it.each(apeKeyRoutes)('GET %s accepts the owner’s ApeKey', async (url) => {
      const user = await createUser(t.db, { timeTyping: 7 });
      const res = await t.request('GET', url, { auth: apeKeyFor(user.uid) });
      expect(res.status).toBe(200);
      if (url === '/users/stats') expect((res.body.data as { timeTyping: number }).timeTyping).toBe(7);
    });

    it.each([
      ['GET', '/users'],
      ['GET', '/users/testActivity'],
      ['PATCH', '/users/streak/hourOffset'],
      ['POST', '/users/streakHourOffset'],
      ['GET', '/users/customThemes'],
      ['GET', '/users/favoriteQuotes'],
      ['GET', '/users/inbox'],
      ['GET', '/users/chat/oauth'],
    ])('%s %s refuses ApeKeys: 401 This endpoint does not accept ApeKeys', async (method, url) => {
      const user = await createUser(t.db);
      const res = await t.request(method, url, { auth: apeKeyFor(user.uid), body: { hourOffset: 1 } });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
    });

    it.each([...apeKeyRoutes, '/users/testActivity'])('GET %s needs authentication', async (url) => {
      const res = await t.request('GET', url);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Unauthorized');
    });

    it.each(apeKeyRoutes)('GET %s answers an unknown ApeKey with 404 ApeKey not found', async (url) => {
      const res = await t.request('GET', url, { auth: ANY_APE_KEY });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('ApeKey not found');
    });
  });
});
