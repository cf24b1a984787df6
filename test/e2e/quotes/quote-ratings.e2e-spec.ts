import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

interface RatingView {
  _id: string;
  language: string;
  quoteId: number;
  average: number;
  ratings: number;
  totalRating: number;
}

describe('Quotes: GET and POST /quotes/rating, GET /quotes/isSubmissionEnabled', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } } });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.db.deleteFrom('quote_ratings').execute();
    await t.configure({ quotes: { submissionsEnabled: true } });
  });

  async function signedIn(): Promise<{ uid: string; auth: string }> {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  }

  const rate = (auth: string, body: unknown) =>
    t.request('POST', '/quotes/rating', { auth, body, ip: freshIp() });
  const getRating = (auth: string, query: Record<string, string | number>) =>
    t.request<{ data: RatingView | null }>('GET', '/quotes/rating', { auth, query, ip: freshIp() });

  describe('rating a quote', () => {
    it('answers null for a quote nobody rated', async () => {
      const { auth } = await signedIn();
      const res = await getRating(auth, { quoteId: 7, language: 'english' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Rating retrieved', data: null });
    });

    it('keeps count, total and the one-decimal average; a second rating by the same user replaces the first', async () => {
      const a = await signedIn();
      const b = await signedIn();
      const c = await signedIn();
      expect((await rate(a.auth, { quoteId: 7, language: 'english', rating: 5 })).body).toEqual({
        message: 'Rating submitted',
        data: null,
      });
      await rate(b.auth, { quoteId: 7, language: 'english', rating: 3 });
      await rate(c.auth, { quoteId: 7, language: 'english', rating: 2 });
      const first = await getRating(a.auth, { quoteId: 7, language: 'english' });
      expect(first.body).toEqual({
        message: 'Rating retrieved',
        data: {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          language: 'english',
          quoteId: 7,
          average: 3.3,
          ratings: 3,
          totalRating: 10,
        },
      });

      const update = await rate(a.auth, { quoteId: 7, language: 'english', rating: 1 });
      expect(update.status).toBe(200);
      expect(update.body).toEqual({ message: 'Rating updated', data: null });
      const after = await getRating(b.auth, { quoteId: 7, language: 'english' });
      expect(after.body.data).toEqual({ ...first.body.data, average: 2, ratings: 3, totalRating: 6 });
      expect(
        await t.db.selectFrom('user_quote_ratings').select('rating').where('uid', '=', a.uid).execute(),
      ).toEqual([{ rating: 1 }]);
    });

    it('keeps quotes of other languages and ids apart, and reads a quote id sent as a digit string', async () => {
      const { auth } = await signedIn();
      for (const body of [
        { quoteId: 7, language: 'english', rating: 4 },
        { quoteId: '8', language: 'english', rating: 2 },
        { quoteId: 7, language: 'german', rating: 1 },
      ]) {
        expect((await rate(auth, body)).body).toEqual({ message: 'Rating submitted', data: null });
      }
      expect((await getRating(auth, { quoteId: 7, language: 'english' })).body.data).toMatchObject({
        quoteId: 7,
        ratings: 1,
        totalRating: 4,
      });
      expect((await getRating(auth, { quoteId: 8, language: 'english' })).body.data).toMatchObject({
        totalRating: 2,
      });
      expect((await getRating(auth, { quoteId: 7, language: 'german' })).body.data).toMatchObject({
        language: 'german',
        totalRating: 1,
      });
    });

    it('counts a burst of the same rating by one user once', async () => {
      const { auth } = await signedIn();
      const body = { quoteId: 9, language: 'english', rating: 4 };
      const results = await Promise.all([rate(auth, body), rate(auth, body), rate(auth, body)]);
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      expect((await getRating(auth, { quoteId: 9, language: 'english' })).body.data).toMatchObject({
        ratings: 1,
        totalRating: 4,
        average: 4,
      });
    });

    it.each([
      [{ quoteId: 7, language: 'english', rating: 0 }, '"rating" must not be less than 1'],
      [{ quoteId: 7, language: 'english', rating: 6 }, '"rating" must not be greater than 5'],
      [{ quoteId: 7, language: 'english', rating: 2.5 }, '"rating" must be an integer number'],
      [{ quoteId: -1, language: 'english', rating: 3 }, '"quoteId" must not be less than 0'],
      [{ quoteId: 7, language: 'not_a_language', rating: 3 }, '"language"'],
      [{ quoteId: 7, language: 'english' }, '"rating"'],
      [{ quoteId: 7, language: 'english', rating: 3, extra: true }, "Unrecognized key(s) in object: 'extra'"],
    ])('POST answers 422 to %j', async (body, error) => {
      const { auth } = await signedIn();
      const res = await rate(auth, body);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors?.join('\n')).toContain(error);
      expect(await t.db.selectFrom('quote_ratings').select('id').execute()).toEqual([]);
    });

    it.each([
      [{ language: 'english' }, '"quoteId"'],
      [{ quoteId: 'abc', language: 'english' }, '"quoteId"'],
      [{ quoteId: 7 }, '"language"'],
      [{ quoteId: 7, language: 'english', page: 1 }, "Unrecognized key(s) in object: 'page'"],
    ])('GET answers 400 to the query %j', async (query, error) => {
      const { auth } = await signedIn();
      const res = await getRating(auth, query);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.validationErrors?.join('\n')).toContain(error);
    });

    it('both routes are Bearer-only', async () => {
      await expectBearerOnly(t, 'GET', '/quotes/rating?quoteId=7&language=english');
      await expectBearerOnly(t, 'POST', '/quotes/rating', { quoteId: 7, language: 'english', rating: 3 });
    });
  });

  describe('GET /quotes/isSubmissionEnabled', () => {
    it('answers the switch publicly', async () => {
      const on = await t.request('GET', '/quotes/isSubmissionEnabled', { ip: freshIp() });
      expect(on.status).toBe(200);
      expect(on.body).toEqual({ message: 'Quote submission enabled', data: { isEnabled: true } });
      await t.configure({ quotes: { submissionsEnabled: false } });
      const off = await t.request('GET', '/quotes/isSubmissionEnabled', { ip: freshIp() });
      expect(off.status).toBe(200);
      expect(off.body).toEqual({ message: 'Quote submission disabled', data: { isEnabled: false } });
    });

    it('is limited by its own class (60 per minute per IP)', async () => {
      const ip = freshIp();
      for (let i = 0; i < 60; i += 1) {
        expect((await t.request('GET', '/quotes/isSubmissionEnabled', { ip })).status).toBe(200);
      }
      expect((await t.request('GET', '/quotes/isSubmissionEnabled', { ip })).status).toBe(429);
    });
  });
});
