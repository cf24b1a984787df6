import { MAX_CLOCK_SKEW_MS } from '../../../src/common/auth/token-times';
import { createUser } from '../../support/factories';
import { freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

const YEAR = 365 * 86_400_000;

/** Tokens whose `iat` or `auth_time` lie ahead of the server clock (issue 14, item 3). */
describe('token times ahead of the clock (OIDC issuer)', () => {
  let t: TestApp;
  let uid: string;

  beforeAll(async () => {
    t = await createTestApp();
    ({ uid } = await createUser(t.db));
  });
  afterAll(() => t.close());

  const get = (url: string, auth: string, method = 'GET') => t.request(method, url, { auth, ip: freshIp() });

  it('refuses a correctly signed token issued a year ahead, on cached and fresh-only routes', async () => {
    const auth = await t.bearer(uid, { issuedAt: t.clock.now() + YEAR });
    for (const [method, url] of [
      ['GET', '/users'],
      ['GET', '/users'], // a second time: the refused token was never cached
      ['POST', '/users/revokeAllTokens'],
    ] as const) {
      const res = await get(url, auth, method);
      expect({ url, status: res.status, body: res.body }).toEqual({
        url,
        status: 401,
        body: { message: 'Unauthorized', data: null },
      });
    }
  });

  it('refuses a sign-in time beyond the skew, which would otherwise count as fresh for a year', async () => {
    const auth = await t.bearer(uid, { authTime: t.clock.now() + MAX_CLOCK_SKEW_MS + 5000 });
    expect((await get('/users', auth)).status).toBe(401);
    const fresh = await get('/users/revokeAllTokens', auth, 'POST');
    expect(fresh.status).toBe(401);
    expect(fresh.body.message).toBe('Unauthorized');
  });

  it('accepts tokens within the clock skew (issuer clock a little ahead)', async () => {
    const ahead = t.clock.now() + MAX_CLOCK_SKEW_MS - 5000;
    const res = await get('/users', await t.bearer(uid, { issuedAt: ahead }));
    expect(res.status).toBe(200);
    const fresh = await get('/users/revokeAllTokens', await t.bearer(uid, { authTime: ahead }), 'POST');
    expect(fresh.status).toBe(200);
  });

  it('still judges an old sign-in stale on fresh-only routes', async () => {
    t.clock.advance(2000); // past the revocation the previous test made
    const auth = await t.bearer(uid, { authTime: t.clock.now() - 120_000 });
    const res = await get('/users/revokeAllTokens', auth, 'POST');
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('This endpoint requires a fresh token');
  });
});
