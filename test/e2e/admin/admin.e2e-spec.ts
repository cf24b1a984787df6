import { randomUUID } from 'node:crypto';
import { AccountLifecycle } from '../../../src/common/account-lifecycle';
import { IdentityProvider } from '../../../src/common/auth/identity-provider';
import { createUser } from '../../support/factories';
import { freshIp, someApeKey } from '../../support/route-auth';
import { startSmtpStub, type SmtpStub } from '../../support/smtp-stub';
import { createTestApp, type TestApp } from '../../support/test-app';

const DISABLED = 'Admin endpoints are currently disabled.';
const RESET_LINK = 'https://auth.example/reset?oobCode=admin1';

/** Every admin route with a body that passes validation (ids need not exist). */
const ROUTES: [string, string, unknown][] = [
  ['GET', '/admin', undefined],
  ['GET', '/admin/result/rates', undefined],
  ['POST', '/admin/toggleBan', { uid: 'someone' }],
  ['POST', '/admin/clearStreakHourOffset', { uid: 'someone' }],
  ['POST', '/admin/report/accept', { reports: [{ reportId: randomUUID() }] }],
  ['POST', '/admin/report/reject', { reports: [{ reportId: randomUUID() }] }],
  ['POST', '/admin/sendForgotPasswordEmail', { email: 'someone@typing.example' }],
  ['GET', '/configuration/schema', undefined],
];

describe('Admin: /admin/* and GET /configuration/schema', () => {
  let t: TestApp;
  let smtp: SmtpStub;
  let adminAuth: string;
  const banned: string[] = [];

  beforeAll(async () => {
    smtp = await startSmtpStub();
    t = await createTestApp({
      env: {
        rateLimit: { globalPerMinute: 100_000, overrides: { adminLimit: { max: 10_000 } } },
        mail: { smtpUrl: smtp.url, from: 'Typing <no-reply@typing.example>' },
      },
      configuration: { rateLimiting: { badAuthentication: { maxAttempts: 100_000 } } },
    });
    const admin = await createUser(t.db, { permissions: ['admin'] });
    adminAuth = await t.bearer(admin.uid);
    t.app.get(AccountLifecycle).afterBan('admin-test', (uid) => Promise.resolve(void banned.push(uid)));
    // The identity provider is a third-party service: only a known address gets a link.
    jest
      .spyOn(t.app.get(IdentityProvider), 'generatePasswordResetLink')
      .mockImplementation((email) => Promise.resolve(email === 'known@typing.example' ? RESET_LINK : null));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(async () => {
    await t.configure({ admin: { endpointsEnabled: true }, users: { inbox: { enabled: true } } });
  });

  const call = (method: string, url: string, body?: unknown, auth = adminAuth) =>
    t.request(method, url, { auth, body, ip: freshIp() });

  describe('access', () => {
    it.each(ROUTES)('%s %s: no token 401, ApeKey 401, a non-admin 403', async (method, url, body) => {
      const anonymous = await t.request(method, url, { body, ip: freshIp() });
      expect(anonymous.body).toEqual({ message: 'Unauthorized', data: null });
      const ape = await t.request(method, url, { auth: someApeKey(), body, ip: freshIp() });
      expect(ape.body).toEqual({ message: 'This endpoint does not accept ApeKeys', data: null });
      const plain = await createUser(t.db);
      const res = await call(method, url, body, await t.bearer(plain.uid));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "You don't have permission to do this.", data: null });
    });

    it.each(ROUTES)('%s %s: switched off → 503 before the permission and the body', async (method, url) => {
      await t.configure({ admin: { endpointsEnabled: false } });
      const plain = await createUser(t.db);
      for (const auth of [adminAuth, await t.bearer(plain.uid)]) {
        const res = await call(method, url, method === 'GET' ? undefined : { wrong: true }, auth);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: DISABLED, data: null });
      }
    });

    it('GET /admin answers OK to an admin', async () => {
      const res = await call('GET', '/admin');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'OK', data: null });
    });
  });

  describe('POST /admin/toggleBan', () => {
    it('bans, purges the boards, then unbans', async () => {
      const { uid } = await createUser(t.db);
      const res = await call('POST', '/admin/toggleBan', { uid });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Ban toggled', data: { banned: true } });
      const row = () =>
        t.db.selectFrom('users').select('banned').where('uid', '=', uid).executeTakeFirstOrThrow();
      expect((await row()).banned).toBe(true);
      expect(banned).toContain(uid);
      const again = await call('POST', '/admin/toggleBan', { uid });
      expect(again.body).toEqual({ message: 'Ban toggled', data: { banned: false } });
      expect((await row()).banned).toBe(false);
    });

    it('answers 404 User not found for an unknown uid', async () => {
      const res = await call('POST', '/admin/toggleBan', { uid: 'nobodyHasThisUid' });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found', data: null });
    });

    it.each([
      [{}, '"uid"'],
      [{ uid: 5 }, '"uid"'],
      [{ uid: 'x'.repeat(256) }, '"uid" must be a valid uid (1-255 characters)'],
      [{ uid: 'a\tb' }, '"uid" must be a valid uid'],
      [{ uid: 'abc', extra: 1 }, "Unrecognized key(s) in object: 'extra'"],
    ])('answers 422 to %j', async (body, error) => {
      const res = await call('POST', '/admin/toggleBan', body);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors?.join('\n')).toContain(error);
    });
  });

  describe('POST /admin/clearStreakHourOffset', () => {
    it('clears the offset so the user may set it again', async () => {
      const { uid } = await createUser(t.db);
      await t.db.updateTable('users').set({ streak_hour_offset: 2.5 }).where('uid', '=', uid).execute();
      const res = await call('POST', '/admin/clearStreakHourOffset', { uid });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Streak hour offset cleared', data: null });
      const row = await t.db
        .selectFrom('users')
        .select('streak_hour_offset')
        .where('uid', '=', uid)
        .executeTakeFirstOrThrow();
      expect(row.streak_hour_offset).toBeNull();
    });

    it('answers 404 for an unknown uid and 422 to a bad body', async () => {
      expect((await call('POST', '/admin/clearStreakHourOffset', { uid: 'nobodyHasThisUid' })).status).toBe(
        404,
      );
      expect((await call('POST', '/admin/clearStreakHourOffset', { uid: [] })).status).toBe(422);
    });
  });

  describe('POST /admin/report/accept and /admin/report/reject', () => {
    async function storedReport(uid: string, quoteId: number): Promise<string> {
      const id = randomUUID();
      await t.db
        .insertInto('quote_reports')
        .values({
          id,
          uid,
          content_id: `english-${quoteId}`,
          quote_id: quoteId,
          quote_language: 'english',
          reason: 'Incorrect source',
          comment: '',
          created_at: t.clock.now(),
        })
        .execute();
      return id;
    }
    const mail = (uid: string) =>
      t.db.selectFrom('inbox_mail').select(['subject', 'body']).where('uid', '=', uid).execute();
    const reportIds = async () =>
      (await t.db.selectFrom('quote_reports').select('id').execute()).map((r) => r.id);

    it('accepts: removes the reports and mails each reporter "Report approved"', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const first = await storedReport(a.uid, 11);
      const second = await storedReport(b.uid, 12);
      const untouched = await storedReport(b.uid, 13);
      const res = await call('POST', '/admin/report/accept', {
        reports: [{ reportId: first }, { reportId: second }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Reports removed and users notified.', data: null });
      expect(await reportIds()).toContain(untouched);
      expect(await reportIds()).not.toContain(first);
      expect(await reportIds()).not.toContain(second);
      expect(await mail(a.uid)).toEqual([
        {
          subject: 'Report approved',
          body: 'Your report regarding quote english-11 (Incorrect source) has been approved. Thank you.',
        },
      ]);
      expect((await mail(b.uid)).map((m) => m.subject)).toEqual(['Report approved']);
    });

    it('accepts a user report (POST /users/report) and names the reported user in the mail', async () => {
      const reporter = await createUser(t.db);
      const reported = await createUser(t.db);
      const id = randomUUID();
      await t.db
        .insertInto('quote_reports')
        .values({
          id,
          type: 'user',
          uid: reporter.uid,
          content_id: reported.uid,
          quote_id: null,
          quote_language: null,
          reason: 'Inappropriate name',
          comment: '',
          created_at: t.clock.now(),
        })
        .execute();
      const res = await call('POST', '/admin/report/accept', { reports: [{ reportId: id }] });
      expect(res.status).toBe(200);
      expect(await mail(reporter.uid)).toEqual([
        {
          subject: 'Report approved',
          body: `Your report regarding user ${reported.uid} (Inappropriate name) has been approved. Thank you.`,
        },
      ]);
    });

    it('rejects: mails "Report denied" with the reason when given', async () => {
      const { uid } = await createUser(t.db);
      const withReason = await storedReport(uid, 21);
      const without = await storedReport(uid, 22);
      const res = await call('POST', '/admin/report/reject', {
        reports: [{ reportId: withReason, reason: 'The source is right.' }, { reportId: without }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Reports removed and users notified.', data: null });
      const bodies = (await mail(uid)).map((m) => `${m.subject}|${m.body}`).sort();
      expect(bodies).toEqual([
        'Report denied|Sorry, but your report regarding quote english-21 (Incorrect source) has been denied.\nReason: The source is right.',
        'Report denied|Sorry, but your report regarding quote english-22 (Incorrect source) has been denied.',
      ]);
    });

    it('answers 404 naming the unknown ids and changes nothing', async () => {
      const { uid } = await createUser(t.db);
      const known = await storedReport(uid, 31);
      const unknown = randomUUID();
      const res = await call('POST', '/admin/report/accept', {
        reports: [{ reportId: known }, { reportId: unknown }, { reportId: 'not-a-uuid' }],
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        message: `Reports not found for some IDs ${unknown},not-a-uuid`,
        data: null,
      });
      expect(await reportIds()).toContain(known);
      expect(await mail(uid)).toEqual([]);
    });

    it('removes reports even when the inbox is off (the mail is silently not delivered)', async () => {
      await t.configure({ users: { inbox: { enabled: false } } });
      const { uid } = await createUser(t.db);
      const id = await storedReport(uid, 41);
      expect((await call('POST', '/admin/report/accept', { reports: [{ reportId: id }] })).status).toBe(200);
      expect(await reportIds()).not.toContain(id);
      expect(await mail(uid)).toEqual([]);
    });

    it.each([
      ['/admin/report/accept', {}, '"reports"'],
      ['/admin/report/accept', { reports: [] }, '"reports"'],
      ['/admin/report/accept', { reports: [{}] }, '"reports.0.reportId"'],
      ['/admin/report/accept', { reports: [{ reportId: 'x', reason: 'r' }] }, "'reason'"],
      ['/admin/report/reject', { reports: [{ reportId: 'x', reason: 5 }] }, '"reports.0.reason"'],
      ['/admin/report/reject', { reports: [{ reportId: 'x' }], extra: 1 }, "'extra'"],
      // Nested arrays slipped past @ValidateNested (found by the fuzz): 500 before.
      ['/admin/report/accept', { reports: [[]] }, '"reports'],
      ['/admin/report/reject', { reports: [[], [], []] }, '"reports'],
    ])('%s answers 422 to %j', async (url, body, error) => {
      const res = await call('POST', url, body);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors?.join('\n')).toContain(error);
    });
  });

  describe('POST /admin/sendForgotPasswordEmail', () => {
    const SENT = { message: 'Password reset request email sent.', data: null };
    beforeAll(async () => {
      await createUser(t.db, { email: 'known@typing.example' });
      // An account the identity provider makes no link for (an OIDC issuer resets passwords on its own pages).
      await createUser(t.db, { email: 'issuer-managed@typing.example' });
    });

    it('mails a reset link to an account address, whatever its case', async () => {
      const before = smtp.mails.length;
      const res = await call('POST', '/admin/sendForgotPasswordEmail', { email: 'Known@Typing.example' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(SENT);
      const [sent] = (await smtp.waitFor(before + 1)).slice(before);
      expect(sent?.to).toEqual(['known@typing.example']);
      expect(sent?.raw).toContain('Subject: Reset your password');
      expect(sent?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(RESET_LINK);
    });

    it('answers an address without an account as the original does (200), and sends nothing', async () => {
      const before = smtp.mails.length;
      for (const email of ['unknown@typing.example', 'issuer-managed@typing.example']) {
        const res = await call('POST', '/admin/sendForgotPasswordEmail', { email });
        expect(res.status).toBe(200);
        expect(res.body).toEqual(SENT);
      }
      await new Promise((r) => setTimeout(r, 200));
      expect(smtp.mails.length).toBe(before);
    });

    it('refuses a bad address with 422', async () => {
      const res = await call('POST', '/admin/sendForgotPasswordEmail', { email: 'not an address' });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toEqual(['"email" must be an email']);
    });
  });

  describe('GET /configuration/schema', () => {
    it('describes every configuration key with its type, label and bounds', async () => {
      const res = await call('GET', '/configuration/schema');
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Configuration schema retrieved');
      const form = res.body.data as { type: string; fields: Record<string, unknown> };
      expect(form.type).toBe('object');
      expect(form.fields.maintenance).toEqual({ type: 'boolean', label: 'Maintenance' });
      expect(form.fields.dev).toEqual({
        type: 'object',
        label: 'Dev',
        fields: {
          responseSlowdownMs: {
            type: 'number',
            label: 'Response Slowdown Ms',
            integer: true,
            min: 0,
            max: 60_000,
          },
        },
      });
      // Every key of GET /configuration is in the form.
      const config = (await t.request('GET', '/configuration')).body.data as Record<string, unknown>;
      const keysOf = (value: Record<string, unknown>, node: { fields?: Record<string, unknown> }): void => {
        expect(Object.keys(node.fields ?? {}).sort()).toEqual(Object.keys(value).sort());
        for (const [key, child] of Object.entries(value)) {
          if (typeof child === 'object' && child !== null && !Array.isArray(child)) {
            keysOf(
              child as Record<string, unknown>,
              node.fields?.[key] as { fields?: Record<string, unknown> },
            );
          }
        }
      };
      keysOf(config, form);
    });
  });
});
