import { randomBytes } from 'node:crypto';
import type { Database } from '../../../src/infra/database/database';
import { generateKey, TEST_CONFIGURATION } from '../ape-keys/support';
import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';
import { createTag } from './result-factory';

const NOW = Date.UTC(2026, 10, 24, 12, 0);

/** Inserts a result row directly; returns its id. */
async function seedResult(
  db: Database,
  uid: string,
  overrides: Record<string, unknown> = {},
): Promise<string> {
  const id = randomBytes(12).toString('hex');
  await db
    .insertInto('results')
    .values({
      id,
      uid,
      name: 'seeded',
      timestamp: NOW - 60_000,
      wpm: 100,
      raw_wpm: 104,
      acc: 97,
      consistency: 80,
      key_consistency: 55,
      char_stats: [250, 3, 1, 0],
      mode: 'time',
      mode2: '15',
      language: 'english',
      test_duration: 15,
      ...overrides,
    })
    .execute();
  return id;
}

const tagBests = (db: Database, uid: string) =>
  db
    .selectFrom('tag_personal_bests')
    .select(['tag_id', 'mode', 'mode2', 'language', 'wpm', 'acc', 'raw', 'consistency', 'timestamp'])
    .where('uid', '=', uid)
    .orderBy('tag_id')
    .execute();

describe('PATCH /results/tags, GET /results/last', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      now: NOW,
      configuration: TEST_CONFIGURATION,
      env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
  });
  afterAll(() => t.close());

  async function signedIn(): Promise<{ uid: string; auth: string }> {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  }

  const patchTags = (auth: string, body: unknown) =>
    t.request<{ data: { tagPbs: string[] } }>('PATCH', '/results/tags', { auth, body, ip: freshIp() });

  describe('PATCH /results/tags', () => {
    it('replaces the tags and records the result as the best of tags without a better one', async () => {
      const { uid, auth } = await signedIn();
      const resultId = await seedResult(t.db, uid, { tags: [] });
      const fresh = await createTag(t.db, uid, 'fresh');
      const slower = await createTag(t.db, uid, 'slower');
      const faster = await createTag(t.db, uid, 'faster');
      const bucket = {
        uid,
        mode: 'time',
        mode2: '15',
        language: 'english',
        difficulty: 'normal',
        punctuation: false,
        numbers: false,
        lazy_mode: false,
        acc: 90,
        raw: 90,
        consistency: 70,
        timestamp: 1,
      };
      await t.db
        .insertInto('tag_personal_bests')
        .values([
          { ...bucket, tag_id: slower, wpm: 90 },
          { ...bucket, tag_id: faster, wpm: 120 },
        ])
        .execute();

      const res = await patchTags(auth, { tagIds: [fresh, slower, faster], resultId });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Result tags updated');
      expect([...res.body.data.tagPbs].sort()).toEqual([fresh, slower].sort());
      expect(Object.keys(res.body.data)).toEqual(['tagPbs']);

      const stored = await t.db
        .selectFrom('results')
        .select('tags')
        .where('id', '=', resultId)
        .executeTakeFirstOrThrow();
      expect([...stored.tags].sort()).toEqual([fresh, slower, faster].sort());
      const best = { mode: 'time', mode2: '15', language: 'english', acc: 97, raw: 104, consistency: 80 };
      const byTag = Object.fromEntries((await tagBests(t.db, uid)).map((row) => [row.tag_id, row]));
      expect(byTag[fresh]).toEqual({ tag_id: fresh, ...best, wpm: 100, timestamp: NOW });
      expect(byTag[slower]).toEqual({ tag_id: slower, ...best, wpm: 100, timestamp: NOW });
      // The faster tag keeps its own best.
      expect(byTag[faster]).toMatchObject({ wpm: 120, acc: 90, timestamp: 1 });

      // Tagging again: now a tie with its own best, so no new best.
      const again = await patchTags(auth, { tagIds: [fresh], resultId });
      expect(again.body.data).toEqual({ tagPbs: [] });
      const retagged = await t.db
        .selectFrom('results')
        .select('tags')
        .where('id', '=', resultId)
        .executeTakeFirstOrThrow();
      expect(retagged.tags).toEqual([fresh]);
    });

    it('clears the tags with an empty list', async () => {
      const { uid, auth } = await signedIn();
      const tag = await createTag(t.db, uid);
      const resultId = await seedResult(t.db, uid, { tags: [tag] });
      const res = await patchTags(auth, { tagIds: [], resultId });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ tagPbs: [] });
      const stored = await t.db
        .selectFrom('results')
        .select('tags')
        .where('id', '=', resultId)
        .executeTakeFirstOrThrow();
      expect(stored.tags).toEqual([]);
    });

    it.each([
      ['a quote', { mode: 'quote', mode2: '12' }],
      ['an abandoned test', { bailed_out: true }],
      ['a funbox that cannot set bests', { funbox: ['arrows'] }],
    ])('tags %s without recording a best', async (_label, overrides) => {
      const { uid, auth } = await signedIn();
      const tag = await createTag(t.db, uid);
      const resultId = await seedResult(t.db, uid, overrides);
      const res = await patchTags(auth, { tagIds: [tag], resultId });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ tagPbs: [] });
      expect(await tagBests(t.db, uid)).toEqual([]);
    });

    it("answers 404 Result not found for someone else's result, and changes nothing", async () => {
      const owner = await signedIn();
      const other = await signedIn();
      const resultId = await seedResult(t.db, owner.uid, { tags: [] });
      const otherTag = await createTag(t.db, other.uid);
      const res = await patchTags(other.auth, { tagIds: [otherTag], resultId });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'Result not found', data: null });
      const stored = await t.db
        .selectFrom('results')
        .select('tags')
        .where('id', '=', resultId)
        .executeTakeFirstOrThrow();
      expect(stored.tags).toEqual([]);
    });

    it("answers 422 for a tag the caller does not own (someone else's or unknown), and changes nothing", async () => {
      const { uid, auth } = await signedIn();
      const other = await signedIn();
      const own = await createTag(t.db, uid);
      const theirs = await createTag(t.db, other.uid);
      const resultId = await seedResult(t.db, uid, { tags: [own] });
      for (const tagIds of [[own, theirs], ['abcdef0123456789abcdef01']]) {
        const res = await patchTags(auth, { tagIds, resultId });
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ message: "One of the tag id's is not valid", data: null });
      }
      const stored = await t.db
        .selectFrom('results')
        .select('tags')
        .where('id', '=', resultId)
        .executeTakeFirstOrThrow();
      expect(stored.tags).toEqual([own]);
      expect(await tagBests(t.db, other.uid)).toEqual([]);
    });

    it.each([
      [{}, ['"tagIds" must be an array', '"resultId" must be a valid id']],
      [{ tagIds: 'abc', resultId: 'abc' }, ['"tagIds" must be an array']],
      [{ tagIds: ['a b'], resultId: 'abc' }, ['"tagIds" must be a valid id']],
      [{ tagIds: [], resultId: 'abc', extra: 1 }, ["Unrecognized key(s) in object: 'extra'"]],
    ])('answers 422 to the body %j', async (body, errors) => {
      const { auth } = await signedIn();
      const res = await patchTags(auth, body);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      for (const error of errors) expect(res.body.validationErrors?.join('\n')).toContain(error);
    });

    it('is Bearer-only', async () => {
      await expectBearerOnly(t, 'PATCH', '/results/tags', { tagIds: [], resultId: 'abc' });
    });
  });

  describe('GET /results/last', () => {
    it('answers the newest result in full', async () => {
      const { uid, auth } = await signedIn();
      await seedResult(t.db, uid, { timestamp: NOW - 120_000, wpm: 50 });
      const newest = await seedResult(t.db, uid, {
        timestamp: NOW - 1000,
        chart_data: { wpm: [1, 2], burst: [3, 4], err: [0, 0] },
        key_spacing_stats: { average: 10, sd: 2 },
        punctuation: true,
      });
      // Someone else's newer result is not the caller's last.
      await seedResult(t.db, (await createUser(t.db)).uid, { timestamp: NOW });
      const res = await t.request('GET', '/results/last', { auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Result retrieved',
        data: {
          _id: newest,
          uid,
          name: 'seeded',
          wpm: 100,
          rawWpm: 104,
          acc: 97,
          consistency: 80,
          keyConsistency: 55,
          charStats: [250, 3, 1, 0],
          mode: 'time',
          mode2: '15',
          timestamp: NOW - 1000,
          testDuration: 15,
          punctuation: true,
          chartData: { wpm: [1, 2], burst: [3, 4], err: [0, 0] },
          keySpacingStats: { average: 10, sd: 2 },
        },
      });
      // The same as the single-result read.
      const one = await t.request('GET', `/results/id/${newest}`, { auth });
      expect(one.body.data).toEqual(res.body.data);
    });

    it('answers a long test\'s chart as stored, the original platform\'s "toolong" (any JSON passes the compiled answer)', async () => {
      const { uid, auth } = await signedIn();
      const id = await seedResult(t.db, uid, {
        timestamp: NOW - 1000,
        chart_data: JSON.stringify('toolong'),
      });
      const last = await t.request<{ data: { _id: string; chartData: unknown } }>('GET', '/results/last', {
        auth,
      });
      expect(last.status).toBe(200);
      expect(last.body.data).toMatchObject({ _id: id, chartData: 'toolong' });
      const one = await t.request('GET', `/results/id/${id}`, { auth });
      expect(one.body).toEqual(last.body);
    });

    it("answers 404 No last result found without results (others' results do not count)", async () => {
      const { auth } = await signedIn();
      const res = await t.request('GET', '/results/last', { auth });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'No last result found', data: null });
    });

    it('accepts an ApeKey and refuses no or a garbage token', async () => {
      const { uid, auth } = await signedIn();
      const id = await seedResult(t.db, uid);
      const key = await generateKey(t, auth);
      const res = await t.request('GET', '/results/last', { auth: `ApeKey ${key.apeKey}`, ip: freshIp() });
      expect(res.status).toBe(200);
      expect((res.body.data as { _id: string })._id).toBe(id);
      for (const header of [undefined, 'Bearer not.a.jwt']) {
        const refused = await t.request('GET', '/results/last', { auth: header, ip: freshIp() });
        expect(refused.status).toBe(401);
      }
    });
  });
});
