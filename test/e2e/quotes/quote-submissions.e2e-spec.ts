import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';

const TEXT = 'The quick brown fox jumps over the lazy dog, and then it does it again and again.';
const quoteText = (n: number) => `${TEXT} Number ${n}.`;

interface Submission {
  _id: string;
  text: string;
  source: string;
  language: string;
  submittedBy: string;
  timestamp: number;
  approved: boolean;
}

describe('Quotes: submissions (POST /quotes) and moderation (GET /quotes, POST /quotes/approve|reject)', () => {
  let t: TestApp;
  let captcha: StubServer;
  let moderator: { uid: string; name: string; auth: string };

  beforeAll(async () => {
    captcha = await startStubServer(() => ({ json: { success: true } }));
    t = await createTestApp({
      env: {
        captcha: { verifyUrl: captcha.url, secret: 'captcha-secret' },
        rateLimit: { globalPerMinute: 10_000, overrides: {} },
      },
    });
    const mod = await createUser(t.db, { name: 'quote_mod', permissions: ['quoteMod'] });
    moderator = { ...mod, auth: await t.bearer(mod.uid) };
  });
  afterAll(async () => {
    await t.close();
    await captcha.close();
  });
  beforeEach(async () => {
    captcha.handle(() => ({ json: { success: true } }));
    // Each test starts with an empty queue and no approved quotes.
    await t.db.deleteFrom('new_quotes').execute();
    await t.db.deleteFrom('quotes').execute();
  });

  async function signedIn(): Promise<{ uid: string; auth: string }> {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  }

  const submission = (overrides: Record<string, unknown> = {}) => ({
    text: TEXT,
    source: 'A book',
    language: 'english',
    captcha: 'token-from-client',
    ...overrides,
  });

  async function submit(auth: string, overrides: Record<string, unknown> = {}) {
    const res = await t.request('POST', '/quotes', { auth, body: submission(overrides) });
    expect(res.status).toBe(200);
    // Distinct submission times keep the oldest-first order of the list deterministic.
    t.clock.advance(1);
  }

  async function pending(): Promise<Submission[]> {
    const res = await t.request('GET', '/quotes', { auth: moderator.auth });
    expect(res.status).toBe(200);
    return res.body.data as Submission[];
  }

  describe('POST /quotes', () => {
    it('queues a submission after the captcha check', async () => {
      const { uid, auth } = await signedIn();
      const before = captcha.requests.length;
      const submittedAt = t.clock.now();
      const res = await t.request('POST', '/quotes', { auth, body: submission(), ip: '203.0.113.7' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Quote submission added', data: null });

      const check = captcha.requests[before];
      const form = new URLSearchParams(check?.body);
      expect(form.get('secret')).toBe('captcha-secret');
      expect(form.get('response')).toBe('token-from-client');
      expect(form.get('remoteip')).toBe('203.0.113.7');

      expect(await pending()).toEqual([
        {
          _id: expect.stringMatching(/^[0-9a-f]{24}$/),
          text: TEXT,
          source: 'A book',
          language: 'english',
          submittedBy: uid,
          timestamp: submittedAt,
          approved: false,
        },
      ]);
    });

    it.each([
      ['the provider says no', () => ({ json: { success: false } })],
      ['the provider fails', () => ({ status: 500, json: {} })],
    ])('refuses with 422 Captcha check failed when %s', async (_label, answer) => {
      captcha.handle(answer);
      const { auth } = await signedIn();
      const res = await t.request('POST', '/quotes', { auth, body: submission() });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'Captcha check failed', data: null });
      expect(await pending()).toEqual([]);
    });

    it.each([
      [
        'text of 59 characters',
        { text: 'x'.repeat(59) },
        '"text" must be longer than or equal to 60 characters',
      ],
      ['no text', { text: undefined }, '"text" must be a string'],
      ['an empty source', { source: '' }, '"source" must be longer than or equal to 1 characters'],
      ['no source', { source: undefined }, '"source" must be a string'],
      ['an unknown language', { language: 'elvish' }, '"language" must be a supported language'],
      ['no language', { language: undefined }, '"language" must be a string'],
      ['no captcha', { captcha: undefined }, '"captcha" must be a string'],
      ['a numeric captcha', { captcha: 5 }, '"captcha" must be a string'],
      ['an unknown key', { author: 'me' }, "Unrecognized key(s) in object: 'author'"],
    ])('refuses %s with 422', async (_label, overrides, message) => {
      const { auth } = await signedIn();
      const res = await t.request('POST', '/quotes', { auth, body: submission(overrides) });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors).toContain(message);
      expect(await pending()).toEqual([]);
    });

    it('accepts exactly 60 characters', async () => {
      const { auth } = await signedIn();
      await submit(auth, { text: 'x'.repeat(60) });
      expect(await pending()).toHaveLength(1);
    });

    it('caps the queue per language (409) and counts other languages apart', async () => {
      await t.configure({ quotes: { maxQueuedPerLanguage: 2 } });
      try {
        const { auth } = await signedIn();
        await submit(auth, { text: quoteText(1) });
        await submit(auth, { text: quoteText(2) });
        const res = await t.request('POST', '/quotes', { auth, body: submission({ text: quoteText(3) }) });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({
          message: 'There are already 2 quotes in the queue for this language.',
          data: null,
        });
        await submit(auth, { text: quoteText(3), language: 'german' });
        expect(await pending()).toHaveLength(3);
      } finally {
        await t.configure({ quotes: { maxQueuedPerLanguage: 100 } });
      }
    });

    it('answers 409 with the default cap of 100', async () => {
      const { uid, auth } = await signedIn();
      await t.db
        .insertInto('new_quotes')
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            id: `q${i}`,
            uid,
            text: quoteText(i),
            source: 's',
            language: 'french',
            submitted_at: i,
          })),
        )
        .execute();
      const res = await t.request('POST', '/quotes', { auth, body: submission({ language: 'french' }) });
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('There are already 100 quotes in the queue for this language.');
    });

    it('acknowledges a duplicate text but queues it once', async () => {
      const { auth } = await signedIn();
      await submit(auth);
      await submit(auth);
      expect(await pending()).toHaveLength(1);
    });

    it('answers 503 when submissions are disabled, even to an invalid body', async () => {
      await t.configure({ quotes: { submissionsEnabled: false } });
      try {
        const { auth } = await signedIn();
        for (const body of [submission(), {}]) {
          const res = await t.request('POST', '/quotes', { auth, body });
          expect(res.status).toBe(503);
          expect(res.body).toEqual({
            message:
              'Quote submission is disabled temporarily. The queue is quite long and we need some time to catch up.',
            data: null,
          });
        }
        expect(await pending()).toEqual([]);
      } finally {
        await t.configure({ quotes: { submissionsEnabled: true } });
      }
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'POST', '/quotes', submission());
    });

    it('rate-limits submissions at 60 per hour', async () => {
      const { auth } = await signedIn();
      for (let i = 0; i < 60; i += 1) {
        await submit(auth, { text: quoteText(i), language: i % 2 === 0 ? 'english' : 'spanish' });
      }
      const res = await t.request('POST', '/quotes', { auth, body: submission({ text: quoteText(99) }) });
      expect(res.status).toBe(429);
    });
  });

  describe('GET /quotes', () => {
    it('lists the 10 oldest pending submissions', async () => {
      const { auth } = await signedIn();
      for (let i = 11; i >= 0; i -= 1) {
        await submit(auth, { text: quoteText(i) });
      }
      const list = await pending();
      expect(list.map((q) => q.text)).toEqual(Array.from({ length: 10 }, (_, i) => quoteText(11 - i)));
    });

    it('answers 403 to users without the quoteMod permission', async () => {
      const { auth } = await signedIn();
      const res = await t.request('GET', '/quotes', { auth });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "You don't have permission to do this.", data: null });
      const admin = await createUser(t.db, { permissions: ['admin'] });
      const asAdmin = await t.request('GET', '/quotes', { auth: await t.bearer(admin.uid) });
      expect(asAdmin.status).toBe(403);
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'GET', '/quotes');
    });
  });

  describe('POST /quotes/approve', () => {
    it('moves the submission into the quotes of its language, numbering from 1', async () => {
      const author = await signedIn();
      await submit(author.auth, { text: quoteText(1), source: 'First' });
      await submit(author.auth, { text: quoteText(2), source: 'Second' });
      const [first, second] = await pending();

      const res = await t.request('POST', '/quotes/approve', {
        auth: moderator.auth,
        body: { quoteId: first?._id },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Created file english.json and added quote.',
        data: {
          id: 1,
          text: quoteText(1),
          source: 'First',
          length: quoteText(1).length,
          approvedBy: 'quote_mod',
        },
      });

      const next = await t.request('POST', '/quotes/approve', {
        auth: moderator.auth,
        body: { quoteId: second?._id },
      });
      expect(next.body.message).toBe('Added quote to english.json.');
      expect((next.body.data as { id: number }).id).toBe(2);

      expect(await pending()).toEqual([]);
      const stored = await t.db
        .selectFrom('quotes')
        .select([
          'language',
          'id',
          'text',
          'source',
          'length',
          'submitted_by',
          'approved_by',
          'approved_by_uid',
        ])
        .orderBy('id')
        .execute();
      expect(stored).toEqual([
        {
          language: 'english',
          id: 1,
          text: quoteText(1),
          source: 'First',
          length: quoteText(1).length,
          submitted_by: author.uid,
          approved_by: 'quote_mod',
          approved_by_uid: moderator.uid,
        },
        expect.objectContaining({ id: 2, text: quoteText(2) }),
      ]);
    });

    it('applies the moderator edits; empty edits keep the submitted values', async () => {
      const { auth } = await signedIn();
      await submit(auth, { text: quoteText(1), source: 'Original' });
      await submit(auth, { text: quoteText(2), source: 'Kept' });
      const [a, b] = await pending();
      const edited = `${quoteText(1)} Edited.`;
      const res = await t.request('POST', '/quotes/approve', {
        auth: moderator.auth,
        body: { quoteId: a?._id, editText: edited, editSource: 'Fixed source' },
      });
      expect(res.body.data).toMatchObject({ text: edited, source: 'Fixed source', length: edited.length });
      const kept = await t.request('POST', '/quotes/approve', {
        auth: moderator.auth,
        body: { quoteId: b?._id, editText: '', editSource: null },
      });
      expect(kept.body.data).toMatchObject({ text: quoteText(2), source: 'Kept' });
    });

    it('answers 409 Duplicate quote when the text is already a quote, and keeps the submission', async () => {
      const { auth } = await signedIn();
      await submit(auth, { text: quoteText(1) });
      await submit(auth, { text: quoteText(2) });
      const [a, b] = await pending();
      await t.request('POST', '/quotes/approve', { auth: moderator.auth, body: { quoteId: a?._id } });
      const res = await t.request('POST', '/quotes/approve', {
        auth: moderator.auth,
        body: { quoteId: b?._id, editText: quoteText(1) },
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Duplicate quote', data: null });
      expect((await pending()).map((q) => q._id)).toEqual([b?._id]);
    });

    it('does not queue a text that is already an approved quote', async () => {
      const { auth } = await signedIn();
      await submit(auth, { text: quoteText(1) });
      const [a] = await pending();
      await t.request('POST', '/quotes/approve', { auth: moderator.auth, body: { quoteId: a?._id } });
      await submit(auth, { text: quoteText(1) });
      expect(await pending()).toEqual([]);
    });

    it('answers 404 for an unknown or already reviewed submission', async () => {
      const { auth } = await signedIn();
      await submit(auth);
      const [a] = await pending();
      const answers = await Promise.all([
        t.request('POST', '/quotes/approve', { auth: moderator.auth, body: { quoteId: a?._id } }),
        t.request('POST', '/quotes/approve', { auth: moderator.auth, body: { quoteId: a?._id } }),
      ]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 404]);
      const notFound = answers.find((r) => r.status === 404);
      expect(notFound?.body).toEqual({
        message: 'Quote not found. It might have already been reviewed. Please refresh the list.',
        data: null,
      });
      expect(await t.db.selectFrom('quotes').select('id').execute()).toHaveLength(1);
    });

    it.each([
      ['no quoteId', {}, '"quoteId" must be a string'],
      ['a malformed quoteId', { quoteId: 'not an id' }, '"quoteId" must be a valid id'],
      ['a numeric editText', { quoteId: 'abc', editText: 5 }, '"editText" must be a string'],
      ['an unknown key', { quoteId: 'abc', approve: true }, "Unrecognized key(s) in object: 'approve'"],
    ])('refuses %s with 422', async (_label, body, message) => {
      const res = await t.request('POST', '/quotes/approve', { auth: moderator.auth, body });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toContain(message);
    });

    it('answers 403 to users without the permission, before validating the body', async () => {
      const author = await signedIn();
      await submit(author.auth);
      const [a] = await pending();
      for (const body of [{ quoteId: a?._id }, { nonsense: true }]) {
        const res = await t.request('POST', '/quotes/approve', { auth: author.auth, body });
        expect(res.status).toBe(403);
        expect(res.body.message).toBe("You don't have permission to do this.");
      }
      expect(await pending()).toHaveLength(1);
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'POST', '/quotes/approve', { quoteId: 'abc' });
    });
  });

  describe('POST /quotes/reject', () => {
    it('removes the submission', async () => {
      const { auth } = await signedIn();
      await submit(auth, { text: quoteText(1) });
      await submit(auth, { text: quoteText(2) });
      const [a, b] = await pending();
      const res = await t.request('POST', '/quotes/reject', {
        auth: moderator.auth,
        body: { quoteId: a?._id },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Quote refused', data: null });
      expect((await pending()).map((q) => q._id)).toEqual([b?._id]);
      expect(await t.db.selectFrom('quotes').select('id').execute()).toEqual([]);

      const again = await t.request('POST', '/quotes/reject', {
        auth: moderator.auth,
        body: { quoteId: a?._id },
      });
      expect(again.status).toBe(404);
      expect(again.body.message).toBe(
        'Quote not found. It might have already been reviewed. Please refresh the list.',
      );
    });

    it('answers 403 to users without the permission and keeps the submission', async () => {
      const author = await signedIn();
      await submit(author.auth);
      const [a] = await pending();
      const res = await t.request('POST', '/quotes/reject', { auth: author.auth, body: { quoteId: a?._id } });
      expect(res.status).toBe(403);
      expect(await pending()).toHaveLength(1);
    });

    it('refuses a malformed body with 422', async () => {
      const res = await t.request('POST', '/quotes/reject', {
        auth: moderator.auth,
        body: { quoteId: 'x', editText: 'no edits on reject' },
      });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toEqual(["Unrecognized key(s) in object: 'editText'"]);
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'POST', '/quotes/reject', { quoteId: 'abc' });
    });
  });

  it('deleting an account removes its pending submissions but keeps its approved quotes', async () => {
    const author = await signedIn();
    await submit(author.auth, { text: quoteText(1) });
    await submit(author.auth, { text: quoteText(2) });
    const [a] = await pending();
    await t.request('POST', '/quotes/approve', {
      auth: moderator.auth,
      body: { quoteId: a?._id },
      ip: freshIp(),
    });
    await t.db.deleteFrom('users').where('uid', '=', author.uid).execute();
    expect(await pending()).toEqual([]);
    expect(await t.db.selectFrom('quotes').select('submitted_by').execute()).toEqual([
      { submitted_by: author.uid },
    ]);
  });
});
