import {
  DevEmailVerificationLinks,
  EmailVerificationLinks,
  FirebaseEmailVerificationLinks,
  ProviderManagedEmailVerification,
} from '../../../src/modules/users/email/email-verification-links';
import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { startSmtpStub, type SmtpStub } from '../../support/smtp-stub';
import { createTestApp, type TestApp } from '../../support/test-app';

const LINK = 'https://auth.example/verify?mode=verifyEmail&oobCode=xyz789';
const MISMATCH =
  'Authenticated email does not match the email found in the database. This might happen if you recently changed your email. Please refresh and try again.';

describe('GET /users/verificationEmail', () => {
  describe('identity provider that hands out links (Firebase; its admin API stubbed here)', () => {
    let t: TestApp;
    let smtp: SmtpStub;
    let links: EmailVerificationLinks;
    /** uid → whether the provider says the address is verified. */
    const verified = new Map<string, boolean>();

    beforeAll(async () => {
      smtp = await startSmtpStub();
      t = await createTestApp({
        configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
        env: {
          mail: { smtpUrl: smtp.url, from: 'Typing <no-reply@typing.example>' },
          rateLimit: { globalPerMinute: 100_000, overrides: { userRequestVerificationEmail: { max: 1000 } } },
        },
      });
      links = t.app.get(EmailVerificationLinks);
      // The test app signs in through a local OIDC issuer; these stand in for firebase-admin's answers.
      jest.spyOn(links, 'handledByProvider').mockReturnValue(false);
      jest
        .spyOn(links, 'account')
        .mockImplementation((uid) =>
          Promise.resolve(verified.has(uid) ? { emailVerified: verified.get(uid) === true } : null),
        );
      jest.spyOn(links, 'generate').mockResolvedValue(LINK);
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    async function signedIn(emailVerified = false) {
      const user = await createUser(t.db, {
        email: `v${Math.random().toString(36).slice(2)}@typing.example`,
      });
      verified.set(user.uid, emailVerified);
      return { ...user, auth: await t.bearer(user.uid, { email: user.email }) };
    }
    const request = (auth: string) => t.request('GET', '/users/verificationEmail', { auth, ip: freshIp() });

    it('mails the provider’s verification link to the address of the token', async () => {
      const me = await signedIn();
      const before = smtp.mails.length;
      const res = await request(me.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Email sent', data: null });
      expect(links.generate).toHaveBeenLastCalledWith(me.email);
      const [mail] = (await smtp.waitFor(before + 1)).slice(before);
      expect(mail?.to).toEqual([me.email]);
      expect(mail?.raw).toContain('Subject: Verify your email');
      expect(mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(LINK);
    });

    it('answers 400 Email already verified and sends nothing', async () => {
      const me = await signedIn(true);
      const before = smtp.mails.length;
      const res = await request(me.auth);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: 'Email already verified', data: null });
      await new Promise((r) => setTimeout(r, 100));
      expect(smtp.mails.length).toBe(before);
    });

    it('answers 400 when the token’s address is not the stored one (changed meanwhile)', async () => {
      const me = await signedIn();
      const res = await request(await t.bearer(me.uid, { email: 'old-address@typing.example' }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: MISMATCH, data: null });
    });

    it.each([
      [{ code: 'auth/too-many-requests' }, 429, 'Too many requests. Please try again later'],
      [
        { code: 'auth/internal-error', message: 'TOO_MANY_ATTEMPTS_TRY_LATER' },
        429,
        'Too many Firebase requests. Please try again later',
      ],
      [
        { code: 'auth/user-not-found' },
        500,
        'Auth user not found when the user was found in the database. Contact support with this error message and your email',
      ],
      [{ code: 'auth/unknown', message: 'boom' }, 500, 'Failed to generate an email verification link: boom'],
    ])(
      'translates the provider error %j',
      async (error: { code: string; message?: string }, status, message) => {
        const me = await signedIn();
        jest
          .mocked(links.generate)
          .mockRejectedValueOnce(Object.assign(new Error(String(error.message)), error));
        const res = await request(me.auth);
        expect(res.status).toBe(status);
        // Server errors carry the logged error's id too.
        expect(res.body).toEqual(
          status >= 500
            ? { message, data: null, errorId: expect.any(String) as string }
            : { message, data: null },
        );
      },
    );

    it('needs a signed-in user (Bearer, no ApeKey)', async () => {
      await expectBearerOnly(t, 'GET', '/users/verificationEmail');
    });
  });

  describe('OIDC identity provider', () => {
    it('answers 400: the provider verifies addresses itself', async () => {
      const t = await createTestApp();
      try {
        expect(t.app.get(EmailVerificationLinks)).toBeInstanceOf(ProviderManagedEmailVerification);
        const { uid } = await createUser(t.db);
        const res = await t.request('GET', '/users/verificationEmail', { auth: await t.bearer(uid) });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          message:
            'Email verification is handled by the identity provider: use its verification mail or account page to verify your address.',
          data: null,
        });
      } finally {
        await t.close();
      }
    });

    it('allows one request per 15 minutes (userRequestVerificationEmail)', async () => {
      const t = await createTestApp();
      try {
        const { uid } = await createUser(t.db);
        const auth = await t.bearer(uid);
        expect((await t.request('GET', '/users/verificationEmail', { auth })).status).toBe(400);
        const second = await t.request('GET', '/users/verificationEmail', { auth });
        expect(second.status).toBe(429);
        expect(second.body).toEqual({
          message: 'Request limit reached, please try again later.',
          data: null,
        });
        const window = await t.redis.keys('*userRequestVerificationEmail*');
        expect(window.length).toBeGreaterThan(0);
        const ttl = await t.redis.pttl(window[0]!);
        expect(ttl).toBeGreaterThan(14 * 60_000);
        expect(ttl).toBeLessThanOrEqual(15 * 60_000);
      } finally {
        await t.close();
      }
    });
  });

  describe('dev mode without an identity provider', () => {
    it('makes up a link and logs the mail, so the original client’s sign-up flow completes', async () => {
      const t = await createTestApp({ mode: 'dev', env: { authProvider: 'none' } });
      try {
        expect(t.app.get(EmailVerificationLinks)).toBeInstanceOf(DevEmailVerificationLinks);
        const { uid, email } = await createUser(t.db);
        const res = await t.request('GET', '/users/verificationEmail', { auth: `Uid ${uid}|${email}` });
        expect(res.body).toEqual({ message: 'Email sent', data: null });
      } finally {
        await t.close();
      }
    });
  });

  it('uses firebase-admin when the identity provider is Firebase', async () => {
    const t = await createTestApp({
      env: { authProvider: 'firebase', firebase: { projectId: 'demo-typing' } },
    });
    try {
      expect(t.app.get(EmailVerificationLinks)).toBeInstanceOf(FirebaseEmailVerificationLinks);
    } finally {
      await t.close();
    }
  });
});
