import { randomBytes } from 'node:crypto';
import { formatApeKey } from '../../../src/common/auth/ape-key-authenticator';
import { AccountLifecycle } from '../../../src/common/account-lifecycle';
import type { Database } from '../../../src/infra/database/database';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { clientResult, resultCount, signed, submitOk, userRow } from './result-factory';

const APE_KEY = `ApeKey ${formatApeKey('abcdef0123456789', 'S'.repeat(32))}`;
const NOW = Date.UTC(2026, 10, 22, 12, 0);

/** Inserts `count` results directly, one minute apart, the newest at `newest`; returns their ids newest first. */
async function seedResults(db: Database, uid: string, count: number, newest = NOW): Promise<string[]> {
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomBytes(12).toString('hex'),
    uid,
    name: 'seeded',
    timestamp: newest - i * 60_000,
    wpm: 50 + i,
    raw_wpm: 51 + i,
    acc: 95,
    consistency: 70,
    mode: 'time',
    mode2: '15',
    language: 'english',
    test_duration: 15,
  }));
  await db.insertInto('results').values(rows).execute();
  return rows.map((r) => r.id);
}

describe('GET /results, GET /users/results, GET /results/id/{resultId}, DELETE /results', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      now: NOW,
      env: {
        rateLimit: {
          globalPerMinute: 100_000,
          overrides: { resultsGet: { max: 1000 }, resultsAdd: { max: 1000 }, resultsDeleteAll: { max: 100 } },
        },
      },
      // Small caps so the edges are reachable: regular 5, premium 8, batch 3.
      configuration: { results: { limits: { regularUser: 5, premiumUser: 8 }, maxBatchSize: 3 } },
    });
  });
  afterAll(() => t.close());

  const list = async (uid: string, query: Record<string, string | number> = {}, path = '/results') =>
    t.request<{ data: { _id: string; timestamp: number }[] }>('GET', path, {
      auth: await t.bearer(uid),
      query,
    });
  const ids = (res: { body: { data: { _id: string }[] } }) => res.body.data.map((r) => r._id);

  describe('authentication', () => {
    it.each(['/results', '/users/results', '/results/id/abc123'])(
      'GET %s needs a caller: 401 Unauthorized',
      async (path) => {
        const res = await t.request('GET', path);
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: 'Unauthorized', data: null });
      },
    );

    it.each(['/results', '/users/results', '/results/id/abc123'])(
      'GET %s accepts the ApeKey scheme (an unknown key is 404 ApeKey not found, not 401)',
      async (path) => {
        const res = await t.request('GET', path, { auth: APE_KEY });
        expect(res.status).toBe(404);
        expect(res.body.message).toBe('ApeKey not found');
      },
    );

    it('DELETE /results refuses ApeKeys and stale tokens', async () => {
      const { uid } = await createUser(t.db);
      const ape = await t.request('DELETE', '/results', { auth: APE_KEY });
      expect(ape.status).toBe(401);
      expect(ape.body.message).toBe('This endpoint does not accept ApeKeys');
      const stale = await t.request('DELETE', '/results', {
        auth: await t.bearer(uid, { authTime: t.clock.now() - 61_000 }),
      });
      expect(stale.status).toBe(401);
      expect(stale.body.message).toBe('This endpoint requires a fresh token');
    });
  });

  describe('listing', () => {
    it('lists only the caller’s results, newest first, without the heavy fields', async () => {
      const { uid } = await createUser(t.db);
      const { uid: other } = await createUser(t.db);
      const mine = await seedResults(t.db, uid, 3);
      await seedResults(t.db, other, 2);
      const res = await list(uid);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Results retrieved');
      expect(ids(res)).toEqual(mine);
      expect(res.body.data[0]).toEqual({
        _id: mine[0],
        uid,
        wpm: 50,
        rawWpm: 51,
        acc: 95,
        mode: 'time',
        mode2: '15',
        timestamp: NOW,
        testDuration: 15,
        consistency: 70,
      });
    });

    it('returns an empty list for a user without results', async () => {
      const { uid } = await createUser(t.db);
      const res = await list(uid);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
    });

    it('GET /users/results is the same list', async () => {
      const { uid } = await createUser(t.db);
      const mine = await seedResults(t.db, uid, 4);
      const res = await list(uid, { offset: 1, limit: 2 }, '/users/results');
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(mine.slice(1, 3));
    });

    it('filters with onOrAfterTimestamp (inclusive)', async () => {
      const { uid } = await createUser(t.db);
      const mine = await seedResults(t.db, uid, 4);
      const res = await list(uid, { onOrAfterTimestamp: NOW - 2 * 60_000 });
      expect(ids(res)).toEqual(mine.slice(0, 3));
    });
  });

  describe('limit arithmetic (regular cap 5, premium cap 8, maxBatchSize 3)', () => {
    let uid: string;
    let all: string[];
    beforeAll(async () => {
      ({ uid } = await createUser(t.db));
      all = await seedResults(t.db, uid, 10);
    });

    it.each<[string, Record<string, number>, number, number]>([
      ['no limit: min(maxBatchSize, maxLimit) = 3', {}, 0, 3],
      ['an explicit limit above the batch size', { limit: 5 }, 0, 5],
      ['limit + offset beyond the cap is cut: limit 4, offset 3 → 2', { limit: 4, offset: 3 }, 3, 2],
      ['offset maxLimit - 1 → 1 result', { limit: 10, offset: 4 }, 4, 1],
      ['no limit with offset 4 → 1 result', { offset: 4 }, 4, 1],
    ])('%s', async (_label, query, from, count) => {
      const res = await list(uid, query);
      expect(res.status).toBe(200);
      expect(ids(res)).toEqual(all.slice(from, from + count));
    });

    it('offset = maxLimit: 422 Max results limit of 5 exceeded.', async () => {
      const res = await list(uid, { offset: 5 });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'Max results limit of 5 exceeded.', data: null });
    });

    describe('premium', () => {
      afterEach(() => t.configure({ users: { premium: { enabled: false } } }));
      const setPremium = (expiresAt: number | null) =>
        t.db.updateTable('users').set({ premium_expires_at: expiresAt }).where('uid', '=', uid).execute();

      it.each<[string, boolean, number | null, number]>([
        ['lifetime premium, premium enabled: cap 8', true, -1, 8],
        ['premium until tomorrow, premium enabled: cap 8', true, NOW + 86_400_000, 8],
        ['expired premium: regular cap 5', true, NOW - 1, 5],
        ['no premium: regular cap 5', true, null, 5],
        ['premium user while premium is disabled server-wide: regular cap 5', false, -1, 5],
      ])('%s', async (_label, enabled, expiresAt, cap) => {
        await t.configure({ users: { premium: { enabled } } });
        await setPremium(expiresAt);
        const last = await list(uid, { limit: 10, offset: cap - 1 });
        expect(ids(last)).toEqual(all.slice(cap - 1, cap));
        const beyond = await list(uid, { offset: cap });
        expect(beyond.status).toBe(422);
        expect(beyond.body.message).toBe(`Max results limit of ${cap} exceeded.`);
      });
    });
  });

  describe('400 Invalid request parameters', () => {
    it.each<[string, Record<string, string>, string]>([
      ['limit 0', { limit: '0' }, '"limit" must not be less than 1'],
      ['limit 1001', { limit: '1001' }, '"limit" must not be greater than 1000'],
      ['limit as text', { limit: 'ten' }, '"limit" must be an integer number'],
      ['a fractional limit', { limit: '2.5' }, '"limit" must be an integer number'],
      ['a negative offset', { offset: '-1' }, '"offset" must not be less than 0'],
      ['a negative timestamp', { onOrAfterTimestamp: '-5' }, '"onOrAfterTimestamp" must not be less than 0'],
      ['an unknown parameter', { page: '2' }, "Unrecognized key(s) in object: 'page'"],
    ])('%s', async (_label, query, error) => {
      const { uid } = await createUser(t.db);
      const res = await list(uid, query);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.validationErrors).toContain(error);
    });
  });

  describe('GET /results/id/{resultId}', () => {
    it('returns the full result of the caller', async () => {
      const { uid } = await createUser(t.db);
      const [id] = await seedResults(t.db, uid, 1);
      const res = await t.request('GET', `/results/id/${id}`, { auth: await t.bearer(uid) });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Result retrieved');
      expect(res.body.data).toMatchObject({ _id: id, uid, name: 'seeded', wpm: 50 });
    });

    it("answers 404 Result not found for someone else's result and for unknown ids", async () => {
      const { uid } = await createUser(t.db);
      const { uid: other } = await createUser(t.db);
      const [theirs] = await seedResults(t.db, other, 1);
      for (const id of [theirs, 'ffffffffffffffffffffffff']) {
        const res = await t.request('GET', `/results/id/${id}`, { auth: await t.bearer(uid) });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: 'Result not found', data: null });
      }
    });

    it('answers 400 for an id that cannot be one', async () => {
      const { uid } = await createUser(t.db);
      const res = await t.request('GET', '/results/id/not-an-id!', { auth: await t.bearer(uid) });
      expect(res.status).toBe(400);
      expect(res.body.validationErrors).toEqual(['"resultId" must be a valid id']);
    });
  });

  describe('DELETE /results', () => {
    it("deletes every result of the caller and nobody else's; PBs, stats, streak and XP stay", async () => {
      const { uid } = await createUser(t.db, { xp: 100 });
      const { uid: other } = await createUser(t.db);
      await submitOk(t, uid);
      await seedResults(t.db, uid, 3, NOW - 86_400_000);
      await seedResults(t.db, other, 2);
      const before = await userRow(t.db, uid);

      const res = await t.request('DELETE', '/results', { auth: await t.bearer(uid) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'All results deleted', data: null });

      expect(await resultCount(t.db, uid)).toBe(0);
      expect(await resultCount(t.db, other)).toBe(2);
      expect((await list(uid)).body.data).toEqual([]);
      expect(await userRow(t.db, uid)).toEqual(before);
      const pbs = await t.db.selectFrom('personal_bests').select('wpm').where('uid', '=', uid).execute();
      expect(pbs).toHaveLength(1);
    });

    it("keeps the user's last-result time, so the spacing check still applies", async () => {
      const { uid } = await createUser(t.db);
      await submitOk(t, uid, { wpm: 70 });
      await t.request('DELETE', '/results', { auth: await t.bearer(uid) });
      const again = await t.request('POST', '/results', {
        auth: await t.bearer(uid),
        body: { result: signed(clientResult({ wpm: 71 }), uid) },
      });
      expect(again.status).toBe(462);
      t.clock.advance(60_000);
      expect((await submitOk(t, uid, { wpm: 72 })).insertedId).toMatch(/^[0-9a-f]{24}$/);
    });

    it('an account reset deletes the results through the lifecycle hook', async () => {
      const { uid } = await createUser(t.db);
      await seedResults(t.db, uid, 2);
      await t.db.transaction().execute((trx) => t.app.get(AccountLifecycle).runReset(uid, trx));
      expect(await resultCount(t.db, uid)).toBe(0);
    });
  });

  describe('rate limits', () => {
    it('GET /results and GET /users/results share the resultsGet class', async () => {
      const limited = await createTestApp({
        stores: t.stores,
        env: { rateLimit: { globalPerMinute: 10_000, overrides: { resultsGet: { max: 2 } } } },
      });
      try {
        const { uid } = await createUser(limited.db);
        const auth = await limited.bearer(uid);
        const statuses = [];
        for (const path of ['/results', '/users/results', '/results']) {
          statuses.push((await limited.request('GET', path, { auth })).status);
        }
        expect(statuses).toEqual([200, 200, 429]);
      } finally {
        await limited.close();
      }
    });
  });
});
