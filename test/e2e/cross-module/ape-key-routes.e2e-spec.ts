import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { generateKey, HIGH_GLOBAL_LIMIT, TEST_CONFIGURATION } from '../ape-keys/support';
import { submitOk } from '../results/result-factory';

/**
 * Real ApeKeys (generated through the API, verified by the ApeKey feature) against every route of the other features:
 * the list of docs/decisions/0012-ape-keys.md accepts them, every fresh-token (sensitive) route and every other
 * signed-in route refuses them.
 */
describe('ApeKeys across the API', () => {
  let t: TestApp;
  let uid: string;
  let key: string;
  let resultId: string;

  beforeAll(async () => {
    t = await createTestApp({ configuration: TEST_CONFIGURATION, env: HIGH_GLOBAL_LIMIT });
    ({ uid } = await createUser(t.db));
    key = `ApeKey ${(await generateKey(t, await t.bearer(uid))).apeKey}`;
    resultId = (await submitOk(t, uid)).insertedId;
  });
  afterAll(() => t.close());

  const accepting = () => [
    ['GET', '/results'],
    ['GET', '/users/results'],
    ['GET', `/results/id/${resultId}`],
    ['GET', '/users/personalBests'],
    ['GET', '/users/stats'],
    ['GET', '/users/tags'],
    ['GET', '/users/streak'],
    ['GET', '/users/currentTestActivity'],
  ];

  it('is accepted on every route of the list in docs/decisions/0012-ape-keys.md, as its owner', async () => {
    for (const [method, url] of accepting()) {
      const res = await t.request(method as string, url as string, { auth: key });
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
    }
    const results = await t.request<{ data: { _id: string }[] }>('GET', '/results', { auth: key });
    expect((results.body.data as { _id: string }[]).map((r) => r._id)).toEqual([resultId]);
  });

  it.each([
    ['DELETE', '/users'],
    ['PATCH', '/users/reset'],
    ['PATCH', '/users/name'],
    ['PATCH', '/users/email'],
    ['PATCH', '/users/password'],
    ['POST', '/users/revokeAllTokens'],
    ['DELETE', '/results'],
  ])('is refused on the fresh-token route %s %s', async (method, url) => {
    const res = await t.request(method, url, { auth: key, body: {} });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
  });

  it.each([
    ['GET', '/users'],
    ['POST', '/results'],
    ['GET', '/users/inbox'],
    ['GET', '/users/testActivity'],
    ['PATCH', '/users/profile'],
    ['POST', '/users/tags'],
    ['GET', '/users/customThemes'],
    ['GET', '/users/favoriteQuotes'],
    ['POST', '/users/optOutOfLeaderboards'],
    ['GET', '/users/friends'],
    ['GET', '/connections'],
    ['GET', '/ape-keys'],
    ['POST', '/ape-keys'],
    ['GET', '/configs'],
    ['PATCH', '/configs'],
    ['GET', '/presets'],
    ['POST', '/quotes'],
    ['GET', '/users/chat/oauth'],
  ])('is refused on the signed-in route %s %s', async (method, url) => {
    const res = await t.request(method, url, { auth: key, body: {} });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
  });

  it('still works after all that, and the account is intact', async () => {
    expect((await t.request('GET', '/users/stats', { auth: key })).status).toBe(200);
    expect((await t.request('GET', '/users', { auth: await t.bearer(uid) })).status).toBe(200);
  });
});
