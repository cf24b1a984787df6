import { createUser } from '../../support/factories';
import { expectBearerOnly } from '../../support/route-auth';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('Quotes: POST /quotes/report', () => {
  let t: TestApp;
  let captcha: StubServer;

  beforeAll(async () => {
    captcha = await startStubServer(() => ({ json: { success: true } }));
    t = await createTestApp({
      env: {
        captcha: { verifyUrl: captcha.url, secret: 'captcha-secret' },
        rateLimit: { globalPerMinute: 10_000, overrides: {} },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await captcha.close();
  });
  beforeEach(async () => {
    captcha.handle(() => ({ json: { success: true } }));
    await t.db.deleteFrom('quote_reports').execute();
  });

  async function signedIn(): Promise<{ uid: string; auth: string }> {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  }

  const report = (overrides: Record<string, unknown> = {}) => ({
    quoteId: 42,
    quoteLanguage: 'english',
    reason: 'Incorrect source',
    comment: 'The source is a different book.',
    captcha: 'token-from-client',
    ...overrides,
  });

  const stored = () =>
    t.db
      .selectFrom('quote_reports')
      .select(['uid', 'content_id', 'quote_id', 'quote_language', 'reason', 'comment', 'created_at'])
      .orderBy('created_at')
      .execute();

  it('refuses a user whose canReport permission was revoked with 403, before validating the body', async () => {
    const { uid } = await createUser(t.db, { canReport: false });
    const auth = await t.bearer(uid);
    for (const body of [report(), { quoteId: 'x' }]) {
      const res = await t.request('POST', '/quotes/report', { auth, body });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "You don't have permission to do this.", data: null });
    }
    expect(await stored()).toEqual([]);
  });

  it('stores the report with its content id and reason', async () => {
    const { uid, auth } = await signedIn();
    const res = await t.request('POST', '/quotes/report', { auth, body: report() });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Quote reported', data: null });
    expect(await stored()).toEqual([
      {
        uid,
        content_id: 'english-42',
        quote_id: 42,
        quote_language: 'english',
        reason: 'Incorrect source',
        comment: 'The source is a different book.',
        created_at: t.clock.now(),
      },
    ]);
    expect(new URLSearchParams(captcha.requests.at(-1)?.body).get('response')).toBe('token-from-client');
  });

  it.each([
    'Grammatical error',
    'Duplicate quote',
    'Inappropriate content',
    'Low quality content',
    'Incorrect source',
  ])('accepts the reason %s', async (reason) => {
    const { auth } = await signedIn();
    const res = await t.request('POST', '/quotes/report', { auth, body: report({ reason }) });
    expect(res.status).toBe(200);
  });

  it('accepts a quote id as a digit string, and no or an empty comment', async () => {
    const { auth } = await signedIn();
    for (const body of [report({ quoteId: '7', comment: undefined }), report({ quoteId: 8, comment: '' })]) {
      const res = await t.request('POST', '/quotes/report', { auth, body });
      expect(res.status).toBe(200);
    }
    expect((await stored()).map((r) => [r.content_id, r.comment])).toEqual([
      ['english-7', ''],
      ['english-8', ''],
    ]);
  });

  it.each([
    ['a negative quote id', { quoteId: -1 }, '"quoteId" must not be less than 0'],
    ['a fractional quote id', { quoteId: 1.5 }, '"quoteId" must be an integer number'],
    ['a non-numeric quote id', { quoteId: 'abc' }, '"quoteId" must be an integer number'],
    ['no quote id', { quoteId: undefined }, '"quoteId" must be an integer number'],
    ['an unknown language', { quoteLanguage: 'elvish' }, '"quoteLanguage" must be a supported language'],
    [
      'a reason not in the list',
      { reason: 'I do not like it' },
      expect.stringMatching(/^"reason" must be one of/),
    ],
    ['no reason', { reason: undefined }, expect.stringMatching(/^"reason" must be one of/)],
    ['markup in the comment', { comment: '<b>bad</b>' }, '"comment" must not contain /, < or >'],
    [
      'a comment over 250 characters',
      { comment: 'x'.repeat(251) },
      expect.stringMatching(/^"comment" must be shorter/),
    ],
    ['a numeric comment', { comment: 5 }, '"comment" must be a string'],
    ['no captcha', { captcha: undefined }, '"captcha" must be a string'],
    ['an unknown key', { severity: 'high' }, "Unrecognized key(s) in object: 'severity'"],
  ])('refuses %s with 422', async (_label, overrides, message) => {
    const { auth } = await signedIn();
    const res = await t.request('POST', '/quotes/report', { auth, body: report(overrides) });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Invalid request data schema');
    expect(res.body.validationErrors).toContainEqual(message);
    expect(await stored()).toEqual([]);
  });

  it('refuses with 422 Captcha check failed when the captcha does not pass', async () => {
    captcha.handle(() => ({ json: { success: false } }));
    const { auth } = await signedIn();
    const res = await t.request('POST', '/quotes/report', { auth, body: report() });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Captcha check failed', data: null });
    expect(await stored()).toEqual([]);
  });

  it('refuses a second report of the same quote by the same user (409)', async () => {
    const { auth } = await signedIn();
    await t.request('POST', '/quotes/report', { auth, body: report() });
    const res = await t.request('POST', '/quotes/report', {
      auth,
      body: report({ reason: 'Duplicate quote' }),
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'You have already reported this content.', data: null });
    // Another quote, or the same id in another language, is other content.
    for (const body of [report({ quoteId: 43 }), report({ quoteLanguage: 'german' })]) {
      expect((await t.request('POST', '/quotes/report', { auth, body })).status).toBe(200);
    }
    expect(await stored()).toHaveLength(3);
  });

  it('refuses reports of one quote beyond quotes.reporting.contentReportLimit (409)', async () => {
    await t.configure({ quotes: { reporting: { contentReportLimit: 2 } } });
    try {
      for (let i = 0; i < 2; i += 1) {
        const { auth } = await signedIn();
        expect((await t.request('POST', '/quotes/report', { auth, body: report() })).status).toBe(200);
      }
      const { auth } = await signedIn();
      const res = await t.request('POST', '/quotes/report', { auth, body: report() });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'A report limit for this content has been reached.', data: null });
      expect((await t.request('POST', '/quotes/report', { auth, body: report({ quoteId: 1 }) })).status).toBe(
        200,
      );
    } finally {
      await t.configure({ quotes: { reporting: { contentReportLimit: 20 } } });
    }
  });

  it('holds the per-quote limit under concurrent reports', async () => {
    await t.configure({ quotes: { reporting: { contentReportLimit: 3 } } });
    try {
      const reporters = await Promise.all(Array.from({ length: 8 }, () => signedIn()));
      const answers = await Promise.all(
        reporters.map(({ auth }) => t.request('POST', '/quotes/report', { auth, body: report() })),
      );
      expect(answers.filter((r) => r.status === 200)).toHaveLength(3);
      expect(answers.filter((r) => r.status === 409)).toHaveLength(5);
    } finally {
      await t.configure({ quotes: { reporting: { contentReportLimit: 20 } } });
    }
  });

  it('answers 503 while the report backlog is at quotes.reporting.maxReports', async () => {
    await t.configure({ quotes: { reporting: { maxReports: 2 } } });
    try {
      const { auth } = await signedIn();
      await t.request('POST', '/quotes/report', { auth, body: report({ quoteId: 1 }) });
      await t.request('POST', '/quotes/report', { auth, body: report({ quoteId: 2 }) });
      const res = await t.request('POST', '/quotes/report', { auth, body: report({ quoteId: 3 }) });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        message:
          'Reports are not being accepted at this time due to a large backlog of reports. Please try again later.',
        data: null,
      });
      expect(await stored()).toHaveLength(2);
    } finally {
      await t.configure({ quotes: { reporting: { maxReports: 1000 } } });
    }
  });

  it('answers 503 when reporting is disabled, even to an invalid body', async () => {
    await t.configure({ quotes: { reporting: { enabled: false } } });
    try {
      const { auth } = await signedIn();
      for (const body of [report(), { quoteId: 'nope' }]) {
        const res = await t.request('POST', '/quotes/report', { auth, body });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: 'Quote reporting is unavailable.', data: null });
      }
      expect(await stored()).toEqual([]);
    } finally {
      await t.configure({ quotes: { reporting: { enabled: true } } });
    }
  });

  it('refuses callers without a signed-in account', async () => {
    await expectBearerOnly(t, 'POST', '/quotes/report', report());
  });

  it('rate-limits a reporter at 50 reports per 30 minutes', async () => {
    const { auth } = await signedIn();
    for (let i = 0; i < 50; i += 1) {
      const res = await t.request('POST', '/quotes/report', { auth, body: report({ quoteId: 100 + i }) });
      expect(res.status).toBe(200);
    }
    const res = await t.request('POST', '/quotes/report', { auth, body: report({ quoteId: 999 }) });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe('Request limit reached, please try again later.');
  });

  it("deleting an account deletes that user's reports", async () => {
    const { uid, auth } = await signedIn();
    await t.request('POST', '/quotes/report', { auth, body: report() });
    await t.db.deleteFrom('users').where('uid', '=', uid).execute();
    expect(await stored()).toEqual([]);
  });
});
