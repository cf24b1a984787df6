import { PUBLIC_STATS_CACHE_MS } from '../../../src/modules/public-stats/public-stats.service';
import { createUser } from '../../support/factories';
import { freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';
import { eligible, rebuild, seedPb } from '../leaderboards/support';

describe('GET /public/speedHistogram, GET /public/typingStats', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } } });
  });
  afterAll(() => t.close());

  const histogram = (query: Record<string, string | number>) =>
    t.request<{ data: Record<string, number> }>('GET', '/public/speedHistogram', { query, ip: freshIp() });

  describe('GET /public/speedHistogram', () => {
    beforeAll(async () => {
      const pbs: [number, string, string][] = [
        [5, 'time', '15'],
        [12.5, 'time', '15'],
        [19.99, 'time', '15'],
        [100, 'time', '15'],
        [309.9, 'time', '15'],
        [310, 'time', '15'],
        [415, 'time', '15'],
        [80, 'time', '60'],
        [81, 'words', '10'],
      ];
      for (const [wpm, mode, mode2] of pbs) await seedPb(t, (await eligible(t)).uid, { wpm, mode, mode2 });
      // Not on the board: too little time typed.
      await seedPb(t, (await createUser(t.db, { timeTyping: 0 })).uid, { wpm: 55 });
      await rebuild(t);
    });

    it('counts the all-time board entries per 10-wpm bucket, faster than the last bucket as Other', async () => {
      const res = await histogram({ language: 'english', mode: 'time', mode2: '15' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Public speed histogram retrieved',
        data: { '0': 1, '10': 2, '100': 1, '300': 1, Other: 2 },
      });
      expect((await histogram({ language: 'english', mode: 'time', mode2: '60' })).body.data).toEqual({
        '80': 1,
      });
      expect((await histogram({ language: 'english', mode: 'words', mode2: 10 })).body.data).toEqual({
        '80': 1,
      });
      // The original client's JSON query encoding: mode2=%2260%22.
      expect((await histogram({ language: 'english', mode: 'time', mode2: '"60"' })).body.data).toEqual({
        '80': 1,
      });
    });

    it('answers {} for a board that does not exist', async () => {
      for (const query of [
        { language: 'german', mode: 'time', mode2: '15' },
        { language: 'english', mode: 'zen', mode2: 'zen' },
        { language: 'english', mode: 'time', mode2: '30' },
      ]) {
        const res = await histogram(query);
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual({});
      }
    });

    it.each([
      [{ mode: 'time', mode2: '15' }, '"language"'],
      [{ language: 'english', mode2: '15' }, '"mode"'],
      [{ language: 'english', mode: 'time' }, '"mode2"'],
      [{ language: 'not_a_language', mode: 'time', mode2: '15' }, '"language"'],
      [{ language: 'english', mode: 'time', mode2: '15', page: 1 }, "Unrecognized key(s) in object: 'page'"],
    ])('answers 400 to the query %j', async (query, error) => {
      const res = await histogram(query);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.validationErrors?.join('\n')).toContain(error);
    });
  });

  describe('GET /public/typingStats', () => {
    it('sums every account, rounds time to hundredths, and refreshes once a minute', async () => {
      t.clock.advance(PUBLIC_STATS_CACHE_MS);
      await t.db.updateTable('users').set({ time_typing: 0, completed_tests: 0, started_tests: 0 }).execute();
      const { uid } = await createUser(t.db);
      await t.db
        .updateTable('users')
        .set({ time_typing: 100.004, completed_tests: 3, started_tests: 5 })
        .where('uid', '=', uid)
        .execute();
      const res = await t.request('GET', '/public/typingStats', { ip: freshIp() });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Public typing stats retrieved',
        data: { timeTyping: 100, testsCompleted: 3, testsStarted: 5 },
      });

      const other = await createUser(t.db);
      await t.db
        .updateTable('users')
        .set({ time_typing: 20.5, completed_tests: 1, started_tests: 2 })
        .where('uid', '=', other.uid)
        .execute();
      // Cached: the same answer within the minute.
      expect((await t.request('GET', '/public/typingStats', { ip: freshIp() })).body.data).toEqual(
        res.body.data,
      );
      t.clock.advance(PUBLIC_STATS_CACHE_MS);
      expect((await t.request('GET', '/public/typingStats', { ip: freshIp() })).body.data).toEqual({
        timeTyping: 120.5,
        testsCompleted: 4,
        testsStarted: 7,
      });
    });

    it('needs no authentication and shares the publicStatsGet class with the histogram (60 per minute)', async () => {
      const ip = freshIp();
      for (let i = 0; i < 30; i += 1) {
        expect((await t.request('GET', '/public/typingStats', { ip })).status).toBe(200);
        expect(
          (
            await t.request('GET', '/public/speedHistogram', {
              ip,
              query: { language: 'english', mode: 'time', mode2: '15' },
            })
          ).status,
        ).toBe(200);
      }
      const limited = await t.request('GET', '/public/typingStats', { ip });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ message: 'Request limit reached, please try again later.', data: null });
    });
  });
});
