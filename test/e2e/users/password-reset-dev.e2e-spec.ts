import { Writable } from 'node:stream';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';

/** Collects the JSON log lines of an app. */
class LineSink extends Writable {
  lines: Record<string, unknown>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n'))
      if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

describe('password resets in dev mode without an identity provider', () => {
  let t: TestApp;
  const sink = new LineSink();
  let adminAuth: string;

  beforeAll(async () => {
    t = await createTestApp({
      mode: 'dev',
      env: { authProvider: 'none', logLevel: 'info', mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'x@y.z' } },
      logDestination: sink,
      configuration: { admin: { endpointsEnabled: true } },
    });
    const admin = await createUser(t.db, { permissions: ['admin'] });
    adminAuth = `Uid ${admin.uid}`;
    await createUser(t.db, { email: 'dev-user@typing.example' });
  });
  afterAll(() => t.close());

  const devLink = (email: string) =>
    `http://localhost:5005/dev/reset-password?email=${encodeURIComponent(email)}`;
  /** The mail the dev mailer logged for `email`, once it is there (the public route mails after answering). */
  async function loggedMail(email: string): Promise<Record<string, unknown> | undefined> {
    for (let i = 0; i < 50; i++) {
      const line = sink.lines.find((l) => l.msg === 'mail not sent (dev): logged' && l.to === email);
      if (line) return line;
      await new Promise((r) => setTimeout(r, 20));
    }
    return undefined;
  }
  const saidNoAccount = () =>
    sink.lines.some((l) => l.msg === 'password reset requested for an address no account has: nothing sent');

  it('POST /admin/sendForgotPasswordEmail: 200 for an existing account, and the link is logged', async () => {
    sink.lines = [];
    const res = await t.request('POST', '/admin/sendForgotPasswordEmail', {
      auth: adminAuth,
      body: { email: 'dev-user@typing.example' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Password reset request email sent.', data: null });
    const mail = await loggedMail('dev-user@typing.example');
    expect(mail).toMatchObject({ subject: 'Reset your password' });
    expect(mail?.text).toContain(devLink('dev-user@typing.example'));
  });

  it('POST /users/forgotPasswordEmail: the same link is logged for an existing account', async () => {
    sink.lines = [];
    const res = await t.request('POST', '/users/forgotPasswordEmail', {
      body: { email: 'dev-user@typing.example', captcha: 'anything' },
    });
    expect(res.status).toBe(200);
    expect((await loggedMail('dev-user@typing.example'))?.text).toContain(devLink('dev-user@typing.example'));
  });

  it.each([
    ['POST', '/admin/sendForgotPasswordEmail', 'Password reset request email sent.'],
    [
      'POST',
      '/users/forgotPasswordEmail',
      'Password reset request received. If the email is valid, you will receive an email shortly.',
    ],
  ])(
    '%s %s: an unknown address gets 200 and a log line saying no account has it',
    async (method, url, message) => {
      sink.lines = [];
      const res = await t.request(method, url, {
        auth: url.startsWith('/admin') ? adminAuth : undefined,
        body: url.startsWith('/admin')
          ? { email: 'nobody@typing.example' }
          : { email: 'nobody@typing.example', captcha: 'anything' },
      });
      expect(res).toMatchObject({ status: 200, body: { message, data: null } });
      for (let i = 0; i < 50 && !saidNoAccount(); i++) await new Promise((r) => setTimeout(r, 20));
      expect(saidNoAccount()).toBe(true);
      expect(sink.lines.some((l) => l.msg === 'mail not sent (dev): logged')).toBe(false);
    },
  );
});
