import { IdentityProvider } from '../../../src/common/auth/identity-provider';
import {
  EmailSender,
  LoggingEmailSender,
  SmtpEmailSender,
} from '../../../src/modules/users/email/email-sender';
import { createUser } from '../../support/factories';
import { startSmtpStub, type SmtpStub } from '../../support/smtp-stub';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';

const ANSWER = 'Password reset request received. If the email is valid, you will receive an email shortly.';
const RESET_LINK = 'https://auth.example/reset?oobCode=abc123';

describe('POST /users/forgotPasswordEmail (production mode: real captcha and SMTP adapters against stubs)', () => {
  let t: TestApp;
  let smtp: SmtpStub;
  let captcha: StubServer;
  let ip = 0;
  const nextIp = () => `10.0.0.${++ip}`;

  beforeAll(async () => {
    smtp = await startSmtpStub();
    captcha = await startStubServer(() => ({ json: { success: true } }));
    t = await createTestApp({
      env: {
        captcha: { verifyUrl: captcha.url, secret: 's' },
        mail: { smtpUrl: smtp.url, from: 'Typing <no-reply@typing.example>' },
      },
    });
    await createUser(t.db, { email: 'known@typing.example' });
    // The identity provider is a third-party service: only known addresses get a link.
    jest
      .spyOn(t.app.get(IdentityProvider), 'generatePasswordResetLink')
      .mockImplementation((email) => Promise.resolve(email === 'known@typing.example' ? RESET_LINK : null));
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await captcha.close();
  });
  afterEach(() => captcha.handle(() => ({ json: { success: true } })));

  const request = (body: unknown, from = nextIp()) =>
    t.request('POST', '/users/forgotPasswordEmail', { body, ip: from });

  it('uses the SMTP relay from SMTP_URL outside dev mode', () => {
    expect(t.app.get(EmailSender)).toBeInstanceOf(SmtpEmailSender);
  });

  it('mails the reset link to a known address', async () => {
    const before = smtp.mails.length;
    const res = await request({ email: 'known@typing.example', captcha: 'c' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: ANSWER, data: null });
    const [mail] = (await smtp.waitFor(before + 1)).slice(before);
    expect(mail?.to).toEqual(['known@typing.example']);
    expect(mail?.from).toBe('no-reply@typing.example');
    expect(mail?.raw).toContain('Subject: Reset your password');
    expect(mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(RESET_LINK);
  });

  it('answers an unknown address exactly the same and sends nothing', async () => {
    const before = smtp.mails.length;
    const res = await request({ email: 'unknown@typing.example', captcha: 'c' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: ANSWER, data: null });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before);
  });

  it('refuses a failed captcha with 422 Captcha challenge failed and sends nothing', async () => {
    captcha.handle(() => ({ json: { success: false } }));
    const before = smtp.mails.length;
    const res = await request({ email: 'known@typing.example', captcha: 'bad' });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'Captcha challenge failed', data: null });
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.mails.length).toBe(before);
  });

  it.each([
    [{ email: 'not-an-email', captcha: 'c' }, '"email" must be an email'],
    [{ captcha: 'c' }, '"email" must be an email'],
    [{ email: 'a@b.test' }, '"captcha" must be a string'],
    [{ email: 'a@b.test', captcha: 'c', uid: 'x' }, "Unrecognized key(s) in object: 'uid'"],
  ])('refuses %j with 422', async (body, problem) => {
    const res = await request(body);
    expect(res.status).toBe(422);
    expect(res.body.validationErrors).toContain(problem);
  });

  it('allows one request per minute per client', async () => {
    const from = nextIp();
    expect((await request({ email: 'unknown@typing.example', captcha: 'c' }, from)).status).toBe(200);
    const second = await request({ email: 'unknown@typing.example', captcha: 'c' }, from);
    expect(second.status).toBe(429);
    expect(second.body.message).toBe('Request limit reached, please try again later.');
  });
});

describe('mail in dev mode', () => {
  it('is logged instead of sent, even with a relay configured', async () => {
    const t = await createTestApp({
      mode: 'dev',
      env: { mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'x@y.z' } },
    });
    try {
      expect(t.app.get(EmailSender)).toBeInstanceOf(LoggingEmailSender);
      const res = await t.request('POST', '/users/forgotPasswordEmail', {
        body: { email: 'someone@typing.example', captcha: 'anything' },
      });
      expect(res.status).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('is logged when no relay is configured in production', async () => {
    const t = await createTestApp();
    try {
      expect(t.app.get(EmailSender)).toBeInstanceOf(LoggingEmailSender);
    } finally {
      await t.close();
    }
  });
});
