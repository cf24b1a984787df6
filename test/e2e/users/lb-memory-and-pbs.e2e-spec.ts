import { LeaderboardHooks } from '../../../src/modules/leaderboards/leaderboard-hooks';
import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';
import { eligible, rebuild, savedEvent, seedPb } from '../leaderboards/support';
import { insertPersonalBest, staleBearer } from './support';

describe('PATCH /users/leaderboardMemory and DELETE /users/personalBests', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
  });
  afterAll(() => t.close());

  async function signedIn() {
    const user = await createUser(t.db);
    return { ...user, auth: await t.bearer(user.uid) };
  }
  const remember = (auth: string, body: unknown) =>
    t.request('PATCH', '/users/leaderboardMemory', { auth, body, ip: freshIp() });
  const userData = async (auth: string) =>
    (await t.request('GET', '/users', { auth })).body.data as Record<string, unknown>;

  describe('PATCH /users/leaderboardMemory', () => {
    it('remembers a rank per mode, mode2 and language and shows it as lbMemory in GET /users', async () => {
      const me = await signedIn();
      expect((await userData(me.auth)).lbMemory).toEqual({});
      const res = await remember(me.auth, { mode: 'time', mode2: '15', language: 'english', rank: 12 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Leaderboard memory updated', data: null });
      await remember(me.auth, { mode: 'time', mode2: '60', language: 'english', rank: 0 });
      await remember(me.auth, { mode: 'time', mode2: '15', language: 'german', rank: 3 });
      await remember(me.auth, { mode: 'time', mode2: '15', language: 'english', rank: 7 });
      expect((await userData(me.auth)).lbMemory).toEqual({
        time: { '15': { english: 7, german: 3 }, '60': { english: 0 } },
      });
    });

    it('is cleared by an account reset', async () => {
      const me = await signedIn();
      await remember(me.auth, { mode: 'words', mode2: '10', language: 'english', rank: 1 });
      expect((await t.request('PATCH', '/users/reset', { auth: me.auth })).status).toBe(200);
      expect((await userData(me.auth)).lbMemory).toEqual({});
    });

    it.each([
      [{ mode: 'time', mode2: '15', language: 'english' }, '"rank" must be an integer number'],
      [{ mode: 'time', mode2: '15', language: 'english', rank: -1 }, '"rank" must not be less than 0'],
      [{ mode: 'time', mode2: '15', language: 'english', rank: 1.5 }, '"rank" must be an integer number'],
      [{ mode: 'time', mode2: '15', language: 'english', rank: '3' }, '"rank" must be an integer number'],
      [
        { mode: 'typing', mode2: '15', language: 'english', rank: 1 },
        '"mode" must be one of the following values: time, words, quote, zen, custom',
      ],
      [
        { mode: 'time', mode2: 'x', language: 'english', rank: 1 },
        '"mode2" must be a number, "zen" or "custom"',
      ],
      [{ mode: 'time', mode2: '15', language: 'elvish', rank: 1 }, '"language" must be a supported language'],
      [
        { mode: 'time', mode2: '15', language: 'english', rank: 1, uid: 'x' },
        "Unrecognized key(s) in object: 'uid'",
      ],
    ])('refuses %j with 422', async (body, problem) => {
      const me = await signedIn();
      const res = await remember(me.auth, body);
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toContain(problem);
      expect((await userData(me.auth)).lbMemory).toEqual({});
    });

    it('needs a signed-in user (Bearer, no ApeKey)', async () => {
      await expectBearerOnly(t, 'PATCH', '/users/leaderboardMemory', {
        mode: 'time',
        mode2: '15',
        language: 'english',
        rank: 1,
      });
    });
  });

  describe('DELETE /users/personalBests', () => {
    it('clears every personal best of the caller only; tag PBs, stats and other users stay', async () => {
      const me = await signedIn();
      const other = await signedIn();
      await insertPersonalBest(t, me.uid, { mode2: '15' });
      await insertPersonalBest(t, me.uid, { mode: 'words', mode2: '25' });
      await insertPersonalBest(t, other.uid);
      await t.db.updateTable('users').set({ completed_tests: 5 }).where('uid', '=', me.uid).execute();

      const res = await t.request('DELETE', '/users/personalBests', { auth: await t.bearer(me.uid) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: "User's PB cleared", data: null });

      const mine = await userData(me.auth);
      expect(mine.personalBests).toEqual({ time: {}, words: {}, quote: {}, zen: {}, custom: {} });
      expect(mine.completedTests).toBe(5);
      const theirs = await userData(other.auth);
      expect((theirs.personalBests as { time: Record<string, unknown> }).time['15']).toHaveLength(1);
    });

    it('takes the user off the all-time board at the next rebuild and off the daily boards at once', async () => {
      await t.configure({
        dailyLeaderboards: {
          enabled: true,
          validModeRules: [{ language: 'english', mode: 'time', mode2: '(15|60)' }],
        },
      });
      const me = await eligible(t);
      await seedPb(t, me.uid, { wpm: 150 });
      await rebuild(t);
      await t.app.get(LeaderboardHooks).afterResult(savedEvent(t, { uid: me.uid, name: me.name }));
      const rankOf = async (path: string) =>
        (
          await t.request('GET', path, {
            auth: me.auth,
            query: { language: 'english', mode: 'time', mode2: '15' },
          })
        ).body.data;
      expect(await rankOf('/leaderboards/daily/rank')).toMatchObject({ uid: me.uid, wpm: 100 });
      expect(await rankOf('/leaderboards/rank')).toMatchObject({ uid: me.uid, wpm: 150 });

      expect(
        (await t.request('DELETE', '/users/personalBests', { auth: await t.bearer(me.uid) })).status,
      ).toBe(200);
      expect(await rankOf('/leaderboards/daily/rank')).toBeNull();
      const bests = await t.db
        .selectFrom('leaderboard_bests')
        .select('uid')
        .where('uid', '=', me.uid)
        .execute();
      expect(bests).toEqual([]);
      await rebuild(t);
      expect(await rankOf('/leaderboards/rank')).toBeNull();
    });

    it('needs a fresh token', async () => {
      const me = await signedIn();
      await insertPersonalBest(t, me.uid);
      const res = await t.request('DELETE', '/users/personalBests', { auth: await staleBearer(t, me.uid) });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'This endpoint requires a fresh token', data: null });
      const bests = (await userData(me.auth)).personalBests as { time: Record<string, unknown> };
      expect(bests.time['15']).toHaveLength(1);
    });

    it('needs a signed-in user (Bearer, no ApeKey)', async () => {
      await expectBearerOnly(t, 'DELETE', '/users/personalBests');
    });
  });
});
