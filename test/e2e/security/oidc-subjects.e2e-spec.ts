import { startStubServer, type StubServer } from '../../support/stub-server';
import { clientResult, signed, signedWithoutUid } from '../results/result-factory';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';

/**
 * Any `sub` a standard OIDC issuer may mint is a uid on every route (issue 14, item 3): Keycloak's UUIDs, Auth0's
 * `provider|id`, and anything up to 255 characters.
 */
const SUBJECTS: [string, string][] = [
  ['a UUID (Keycloak)', 'f81d4fae-7dec-11d0-a765-00a0c91e6bf6'],
  ['a pipe (Auth0)', 'auth0|5f7c8ec7c33c6c004bbafe82'],
  ['dots, colons and an at sign', 'user.name:tenant@example.org'],
  ['255 characters', `${'x'.repeat(250)}|12-4`],
  ['255 characters that all need percent-encoding in a path', '|'.repeat(255)],
];

describe('OIDC subjects of any shape', () => {
  let t: TestApp;
  let captcha: StubServer;
  let n = 0;

  beforeAll(async () => {
    captcha = await startStubServer(() => ({ json: { success: true } }));
    t = await createTestApp({ env: { captcha: { verifyUrl: captcha.url, secret: 's3cret' } } });
  });
  afterAll(async () => {
    await t.close();
    await captcha.close();
  });

  describe.each(SUBJECTS)('with %s', (_label, uid) => {
    it('signs up, reads, submits results, lists them, has a profile and ApeKeys', async () => {
      expect(uid.length).toBeLessThanOrEqual(255);
      const auth = await t.bearer(uid);
      const name = `oidc_${process.pid % 1000}_${++n}`;
      const signup = await t.request('POST', '/users/signup', { auth, body: { name, captcha: 'tok' } });
      expect(signup.status).toBe(200);

      const me = await t.request<{ data: { uid: string } }>('GET', '/users', { auth });
      expect(me.status).toBe(200);
      expect((me.body.data as { uid: string }).uid).toBe(uid);

      // The client hashes the result with its uid in it; both forms are accepted.
      const withUid = await t.request('POST', '/results', {
        auth,
        body: { result: signed(clientResult(), uid) },
      });
      expect({ status: withUid.status, body: withUid.body.message }).toEqual({
        status: 200,
        body: 'Result saved',
      });
      t.clock.advance(60_000); // results closer together than their duration are refused (462)
      const withoutUid = await t.request('POST', '/results', {
        auth,
        body: { result: signedWithoutUid(clientResult(), uid) },
      });
      expect(withoutUid.status).toBe(200);
      const list = await t.request('GET', '/results', { auth });
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(2);

      const profile = await t.request('GET', `/users/${encodeURIComponent(uid)}/profile`, {
        query: { isUid: true },
      });
      expect(profile.status).toBe(200);
      expect((profile.body.data as { name: string }).name).toBe(name);

      const key = await t.request<{ data: { apeKey: string } }>('POST', '/ape-keys', {
        auth,
        body: { name: 'k', enabled: true },
      });
      expect(key.status).toBe(200);
      const viaKey = await t.request('GET', '/results', {
        auth: `ApeKey ${(key.body.data as { apeKey: string }).apeKey}`,
      });
      expect(viaKey.status).toBe(200);
    });
  });

  it("refuses a result whose uid is another user's, whatever the characters: 461, nothing stored", async () => {
    const uid = 'auth0|owner-of-the-token';
    await createUser(t.db, { uid });
    const res = await t.request('POST', '/results', {
      auth: await t.bearer(uid),
      body: { result: signed(clientResult(), 'auth0|someone-else') },
    });
    expect(res.status).toBe(461);
    expect(res.body).toEqual({ message: 'Incorrect result hash', data: null });
    const stored = await t.db.selectFrom('results').select('id').where('uid', '=', uid).execute();
    expect(stored).toEqual([]);
  });

  it('refuses a subject longer than 255 characters: 401 Unauthorized', async () => {
    const uid = 'y'.repeat(256);
    const res = await t.request('GET', '/users', { auth: await t.bearer(uid) });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Unauthorized');
  });

  it('keeps entity ids strict: a uid-shaped result id is 400', async () => {
    const uid = 'auth0|strict-ids';
    await createUser(t.db, { uid });
    const res = await t.request('GET', `/results/id/${encodeURIComponent('auth0|x')}`, {
      auth: await t.bearer(uid),
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid request parameters');
  });
});
