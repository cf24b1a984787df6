import { generateKeyPair } from 'jose';
import { TokenVerifierService } from '../../../src/common/auth/token-verifier.service';
import { formatApeKey } from '../../../src/common/auth/ape-key-authenticator';
import { createUser } from '../../support/factories';
import { signIdToken } from '../../support/jwks';
import { ProbeModule } from '../../support/probe.module';
import { createTestApp, type TestApp } from '../../support/test-app';

const apeKey = (id = 'abcdef0123456789', secret = 'S'.repeat(32)) => `ApeKey ${formatApeKey(id, secret)}`;

describe('Authentication (production mode, OIDC issuer with a local JWKS)', () => {
  let t: TestApp;
  let uid: string;

  beforeAll(async () => {
    t = await createTestApp({
      extraModules: [ProbeModule],
      env: { rateLimit: { globalPerMinute: 10_000, overrides: { adminLimit: { max: 10 } } } },
    });
    ({ uid } = await createUser(t.db, { email: 'someone@example.test' }));
  });
  afterAll(() => t.close());

  describe('no or unusable Authorization header', () => {
    it('refuses a Bearer route without a header: 401 Unauthorized', async () => {
      const res = await t.request('GET', '/probe/bearer');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthorized', data: null });
    });

    it.each([
      ['an empty header', ''],
      ['a scheme without a token', 'Bearer'],
      ['a scheme with only spaces', 'Bearer    '],
      ['an unknown scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
      ['a lower-case scheme', 'bearer abc'],
      ['a garbage token', 'Bearer not.a.jwt'],
    ])('refuses %s: 401 Unauthorized', async (_label, header) => {
      const res = await t.request('GET', '/probe/bearer', { auth: header });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Unauthorized');
    });

    it('serves a public route anonymously', async () => {
      const res = await t.request('GET', '/probe/public');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ type: 'None', uid: '', email: '' });
    });
  });

  describe('Bearer', () => {
    it('accepts a valid token of an existing user', async () => {
      const res = await t.request('GET', '/probe/bearer', {
        auth: await t.bearer(uid, { email: 'someone@example.test' }),
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ type: 'Bearer', uid, email: 'someone@example.test' });
    });

    it('verifies a header sent to a public route and identifies the caller', async () => {
      const res = await t.request('GET', '/probe/public', { auth: await t.bearer(uid) });
      expect(res.status).toBe(200);
      expect((res.body.data as { uid: string }).uid).toBe(uid);
      const bad = await t.request('GET', '/probe/public', { auth: 'Bearer garbage' });
      expect(bad.status).toBe(401);
    });

    it('refuses an expired token: 401 Token expired - please login again', async () => {
      const token = await signIdToken(uid, t.clock.now(), { issuedAt: t.clock.now() - 2 * 3600_000 });
      const res = await t.request('GET', '/probe/bearer', { auth: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Token expired - please login again');
    });

    it('refuses a token signed by another key', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      const token = await signIdToken(uid, t.clock.now(), { signingKey: privateKey });
      const res = await t.request('GET', '/probe/bearer', { auth: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Unauthorized');
    });

    it.each([
      ['another issuer', { issuer: 'https://evil.example' }],
      ['another audience', { audience: 'someone-else' }],
    ])('refuses a token for %s', async (_label, options) => {
      const token = await signIdToken(uid, t.clock.now(), options);
      const res = await t.request('GET', '/probe/bearer', { auth: `Bearer ${token}` });
      expect(res.status).toBe(401);
    });

    it('refuses a tampered token', async () => {
      const token = await signIdToken(uid, t.clock.now());
      const [h, p, s] = token.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString('base64url');
      const res = await t.request('GET', '/probe/bearer', { auth: `Bearer ${h}.${forged}.${s}` });
      expect(res.status).toBe(401);
    });

    it('answers a valid token of a user unknown to the service with 404 User not found', async () => {
      const res = await t.request('GET', '/probe/bearer', { auth: await t.bearer('no-such-user') });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found', data: null });
    });

    it('lets an unknown user call a public route (e.g. before signing up)', async () => {
      const res = await t.request('GET', '/probe/public', { auth: await t.bearer('not-signed-up') });
      expect(res.status).toBe(200);
      expect((res.body.data as { uid: string }).uid).toBe('not-signed-up');
    });
  });

  describe('fresh tokens (60 s)', () => {
    it('accepts a token signed in within 60 seconds', async () => {
      const auth = await t.bearer(uid, { authTime: t.clock.now() - 59_000 });
      const res = await t.request('POST', '/probe/fresh', { auth });
      expect(res.status).toBe(200);
    });

    it('refuses an older sign-in: 401 This endpoint requires a fresh token', async () => {
      const auth = await t.bearer(uid, { authTime: t.clock.now() - 61_000 });
      const res = await t.request('POST', '/probe/fresh', { auth });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('This endpoint requires a fresh token');
    });

    it('judges freshness by the sign-in time, not by a refreshed token', async () => {
      const auth = await t.bearer(uid, { issuedAt: t.clock.now(), authTime: t.clock.now() - 10 * 60_000 });
      expect((await t.request('POST', '/probe/fresh', { auth })).status).toBe(401);
      expect((await t.request('GET', '/probe/bearer', { auth })).status).toBe(200);
    });

    it('never accepts an ApeKey on a fresh-token route', async () => {
      const res = await t.request('POST', '/probe/fresh', { auth: apeKey() });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
    });
  });

  describe('revocation', () => {
    it('refuses tokens issued before a revocation, cached or not, and accepts new ones', async () => {
      const { uid: victim } = await createUser(t.db);
      const old = await t.bearer(victim, { issuedAt: t.clock.now() - 5000 });
      expect((await t.request('GET', '/probe/bearer', { auth: old })).status).toBe(200); // now cached
      await t.app.get(TokenVerifierService).revokeAll(victim);
      for (const url of ['/probe/bearer', '/probe/uncached']) {
        const res = await t.request('GET', url, { auth: old });
        expect(res.status).toBe(401);
        expect(res.body.message).toBe('Token revoked - please login again');
      }
      t.clock.advance(2000);
      const fresh = await t.bearer(victim);
      expect((await t.request('GET', '/probe/uncached', { auth: fresh })).status).toBe(200);
    });
  });

  describe('Uid scheme', () => {
    it('is refused outside dev mode: 401 Unauthorized', async () => {
      const res = await t.request('GET', '/probe/bearer', { auth: `Uid ${uid}|someone@example.test` });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Unauthorized');
    });
  });

  describe('ApeKey scheme (before the ApeKey feature registers a verifier)', () => {
    it('answers a route that does not accept keys with 401', async () => {
      const res = await t.request('GET', '/probe/bearer', { auth: apeKey() });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
    });

    it.each([
      ['not base64url', 'ApeKey ***'],
      ['no dot', `ApeKey ${Buffer.from('nodothere').toString('base64url')}`],
      ['empty id', `ApeKey ${Buffer.from('.secretsecretsecretsecret').toString('base64url')}`],
      ['empty secret', `ApeKey ${Buffer.from('abc.').toString('base64url')}`],
      ['short secret', `ApeKey ${Buffer.from('abc.short').toString('base64url')}`],
      [
        'bad characters in the id',
        `ApeKey ${Buffer.from('a b.secretsecretsecretsecret').toString('base64url')}`,
      ],
    ])('answers a malformed key (%s) with 471 ApeKey structure is invalid', async (_label, header) => {
      const res = await t.request('GET', '/probe/ape', { auth: header });
      expect(res.status).toBe(471);
      expect(res.body).toEqual({ message: 'ApeKey structure is invalid', data: null });
    });

    it('answers a well-formed unknown key with 404 ApeKey not found', async () => {
      const res = await t.request('GET', '/probe/ape', { auth: apeKey() });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('ApeKey not found');
    });

    it('answers every key with 503 when keys are turned off server-wide', async () => {
      await t.configure({ apeKeys: { acceptKeys: false } });
      try {
        for (const url of ['/probe/ape', '/probe/bearer']) {
          const res = await t.request('GET', url, { auth: apeKey() });
          expect(res.status).toBe(503);
          expect(res.body.message).toBe('ApeKeys are not being accepted at this time');
        }
      } finally {
        await t.configure({ apeKeys: { acceptKeys: true } });
      }
    });
  });

  describe('permissions (403) and premium (503)', () => {
    it('refuses a user without the permission and admits one with it', async () => {
      const res = await t.request('GET', '/probe/admin', { auth: await t.bearer(uid) });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "You don't have permission to do this.", data: null });
      const admin = await createUser(t.db, { permissions: ['admin'] });
      expect((await t.request('GET', '/probe/admin', { auth: await t.bearer(admin.uid) })).status).toBe(200);
    });

    it('answers premium routes per spec rules 1 and 2', async () => {
      const lifetime = await createUser(t.db, { premiumExpiresAt: -1 });
      const expired = await createUser(t.db, { premiumExpiresAt: t.clock.now() - 1 });
      const active = await createUser(t.db, { premiumExpiresAt: t.clock.now() + 60_000 });

      const off = await t.request('GET', '/probe/premium', { auth: await t.bearer(lifetime.uid) });
      expect(off.status).toBe(503);
      expect(off.body.message).toBe('Premium features are disabled');

      await t.configure({ users: { premium: { enabled: true } } });
      try {
        expect(
          (await t.request('GET', '/probe/premium', { auth: await t.bearer(lifetime.uid) })).status,
        ).toBe(200);
        expect((await t.request('GET', '/probe/premium', { auth: await t.bearer(active.uid) })).status).toBe(
          200,
        );
        for (const who of [expired.uid, uid]) {
          const res = await t.request('GET', '/probe/premium', { auth: await t.bearer(who) });
          expect(res.status).toBe(503);
          expect(res.body.message).toBe('User does not have premium');
        }
      } finally {
        await t.configure({ users: { premium: { enabled: false } } });
      }
    });
  });

  describe('check order: authentication → rate limit → configuration → permission → validation', () => {
    const invalid = { wrong: true };

    it('walks the order one failure at a time', async () => {
      const plain = await createUser(t.db);
      const mod = await createUser(t.db, { permissions: ['quoteMod'] });

      expect((await t.request('POST', '/probe/ordered', { body: invalid })).status).toBe(401);

      await t.configure({ results: { savingEnabled: false } });
      const disabled = await t.request('POST', '/probe/ordered', {
        auth: await t.bearer(plain.uid),
        body: invalid,
      });
      expect(disabled.status).toBe(503);
      expect(disabled.body.message).toBe('Results are not being saved at this time.');
      await t.configure({ results: { savingEnabled: true } });

      expect(
        (await t.request('POST', '/probe/ordered', { auth: await t.bearer(plain.uid), body: invalid }))
          .status,
      ).toBe(403);
      expect(
        (await t.request('POST', '/probe/ordered', { auth: await t.bearer(mod.uid), body: invalid })).status,
      ).toBe(422);
    });

    it('rate-limits before checking configuration (the limit applies to refused requests too)', async () => {
      const user = await createUser(t.db);
      const auth = await t.bearer(user.uid);
      await t.configure({ results: { savingEnabled: false } });
      try {
        for (let i = 0; i < 10; i++) {
          expect((await t.request('POST', '/probe/ordered', { auth, body: invalid })).status).toBe(503);
        }
        const limited = await t.request('POST', '/probe/ordered', { auth, body: invalid });
        expect(limited.status).toBe(429);
        expect(limited.body).toEqual({
          message: 'Request limit reached, please try again later.',
          data: null,
        });
      } finally {
        await t.configure({ results: { savingEnabled: true } });
      }
    });
  });
});

describe('Authentication in dev mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ mode: 'dev', extraModules: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('accepts Uid <uid>|<email> and treats it as a fresh Bearer token', async () => {
    const { uid } = await createUser(t.db);
    const res = await t.request('GET', '/probe/bearer', { auth: `Uid ${uid}|dev@example.test` });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ type: 'Bearer', uid, email: 'dev@example.test' });
    expect((await t.request('POST', '/probe/fresh', { auth: `Uid ${uid}` })).status).toBe(200);
  });

  it('still requires the user to exist', async () => {
    const res = await t.request('GET', '/probe/bearer', { auth: 'Uid ghost|ghost@example.test' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('User not found');
  });

  it('refuses an empty uid', async () => {
    expect((await t.request('GET', '/probe/bearer', { auth: 'Uid |x@example.test' })).status).toBe(401);
  });
});
