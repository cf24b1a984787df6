import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('POST /users/report (production mode, real captcha adapter)', () => {
  let t: TestApp;
  let captcha: StubServer;

  beforeAll(async () => {
    captcha = await startStubServer(() => ({ json: { success: true } }));
    t = await createTestApp({
      configuration: {
        quotes: { reporting: { enabled: true, maxReports: 1000, contentReportLimit: 2 } },
        rateLimiting: { badAuthentication: { enabled: false } },
      },
      env: {
        captcha: { verifyUrl: captcha.url, secret: 's' },
        rateLimit: { globalPerMinute: 100_000, overrides: { quoteReportSubmit: { max: 1000 } } },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await captcha.close();
  });
  afterEach(() => captcha.handle(() => ({ json: { success: true } })));

  async function signedIn() {
    const user = await createUser(t.db);
    return { ...user, auth: await t.bearer(user.uid) };
  }
  const report = (auth: string, body: unknown) =>
    t.request('POST', '/users/report', { auth, body, ip: freshIp() });
  const body = (uid: string, extra: Record<string, unknown> = {}) => ({
    uid,
    reason: 'Inappropriate name',
    comment: 'rude name',
    captcha: 'c',
    ...extra,
  });
  const reportsOf = (reportedUid: string) =>
    t.db
      .selectFrom('quote_reports')
      .select(['type', 'uid', 'content_id', 'reason', 'comment', 'quote_id', 'quote_language'])
      .where('content_id', '=', reportedUid)
      .execute();

  it('stores the report in the moderation queue with the quote reports (type user)', async () => {
    const me = await signedIn();
    const target = await signedIn();
    const res = await report(me.auth, body(target.uid));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'User reported', data: null });
    expect(await reportsOf(target.uid)).toEqual([
      {
        type: 'user',
        uid: me.uid,
        content_id: target.uid,
        reason: 'Inappropriate name',
        comment: 'rude name',
        quote_id: null,
        quote_language: null,
      },
    ]);
  });

  it('refuses a second report of the same user by the same reporter with 409', async () => {
    const me = await signedIn();
    const target = await signedIn();
    expect((await report(me.auth, body(target.uid))).status).toBe(200);
    const again = await report(me.auth, body(target.uid, { reason: 'Suspected cheating', comment: '' }));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: 'You have already reported this content.', data: null });
  });

  it('refuses reports beyond quotes.reporting.contentReportLimit per user with 409', async () => {
    const target = await signedIn();
    for (let i = 0; i < 2; i++)
      expect((await report((await signedIn()).auth, body(target.uid))).status).toBe(200);
    const res = await report((await signedIn()).auth, body(target.uid));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'A report limit for this content has been reached.', data: null });
    expect(await reportsOf(target.uid)).toHaveLength(2);
  });

  it('answers 503 when the backlog (quote and user reports together) is full', async () => {
    const target = await signedIn();
    const total = Number(
      (
        await t.db
          .selectFrom('quote_reports')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    await t.configure({ quotes: { reporting: { maxReports: total } } });
    try {
      const res = await report((await signedIn()).auth, body(target.uid));
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        message:
          'Reports are not being accepted at this time due to a large backlog of reports. Please try again later.',
        data: null,
      });
    } finally {
      await t.configure({ quotes: { reporting: { maxReports: 1000 } } });
    }
  });

  it('refuses reporting yourself (400) and an unknown user (404)', async () => {
    const me = await signedIn();
    const self = await report(me.auth, body(me.uid));
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ message: 'You cannot report yourself.', data: null });
    const nobody = await report(me.auth, body('uidNobodyHas'));
    expect(nobody.status).toBe(404);
    expect(nobody.body).toEqual({ message: 'User not found', data: null });
  });

  it('refuses a failed captcha with 422 Captcha challenge failed and stores nothing', async () => {
    const me = await signedIn();
    const target = await signedIn();
    captcha.handle(() => ({ json: { success: false } }));
    const res = await report(me.auth, body(target.uid));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Captcha challenge failed', data: null });
    expect(await reportsOf(target.uid)).toEqual([]);
  });

  it('refuses a user whose canReport permission was taken away with 403', async () => {
    const me = await signedIn();
    const target = await signedIn();
    await t.db.updateTable('users').set({ can_report: false }).where('uid', '=', me.uid).execute();
    const res = await report(me.auth, body(target.uid));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "You don't have permission to do this.", data: null });
    expect(await reportsOf(target.uid)).toEqual([]);
  });

  it('checks canReport before validation: a revoked reporter gets 403 even for an invalid body', async () => {
    const { uid } = await createUser(t.db, { canReport: false });
    const res = await report(await t.bearer(uid), { reason: 'Boring', extra: 1 });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "You don't have permission to do this.", data: null });
  });

  it('checks the reporting switch before canReport (503 before 403)', async () => {
    const { uid } = await createUser(t.db, { canReport: false });
    await t.configure({ quotes: { reporting: { enabled: false } } });
    try {
      const res = await report(await t.bearer(uid), {});
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'User reporting is unavailable.', data: null });
    } finally {
      await t.configure({ quotes: { reporting: { enabled: true } } });
    }
  });

  it.each([
    [
      { reason: 'Boring' },
      '"reason" must be one of the following values: Inappropriate name, Inappropriate bio, Inappropriate social links, Suspected cheating',
    ],
    [{ comment: 'see <a href>' }, '"comment" must not contain /, < or >'],
    [{ comment: 'x'.repeat(251) }, '"comment" must be shorter than or equal to 250 characters'],
    [{ captcha: undefined }, '"captcha" must be a string'],
    [{ uid: 42 }, '"uid" must be a string'],
    [{ extra: 1 }, "Unrecognized key(s) in object: 'extra'"],
  ])('refuses %j with 422', async (extra, problem) => {
    const me = await signedIn();
    const target = await signedIn();
    const res = await report(me.auth, body(target.uid, extra));
    expect(res.status).toBe(422);
    expect(res.body.validationErrors).toContain(problem);
  });

  it('needs a signed-in user (Bearer, no ApeKey)', async () => {
    await expectBearerOnly(t, 'POST', '/users/report', body('someone'));
  });

  it('answers 503 User reporting is unavailable. while quotes.reporting.enabled is off, even to an invalid body', async () => {
    const me = await signedIn();
    await t.configure({ quotes: { reporting: { enabled: false } } });
    try {
      const res = await report(me.auth, {});
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: 'User reporting is unavailable.', data: null });
    } finally {
      await t.configure({ quotes: { reporting: { enabled: true } } });
    }
  });
});
