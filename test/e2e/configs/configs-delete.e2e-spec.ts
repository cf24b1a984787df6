import { defaultConfig } from '../../../src/modules/configs/config-schema';
import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('Configs: DELETE /configs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function signedIn(): Promise<{ uid: string; auth: string }> {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  }

  const saved = (uid: string) =>
    t.db.selectFrom('user_configs').select('uid').where('uid', '=', uid).executeTakeFirst();

  it("forgets the caller's saved configuration (and only theirs); reads answer the defaults again", async () => {
    const me = await signedIn();
    const other = await signedIn();
    for (const { auth } of [me, other]) {
      expect((await t.request('PATCH', '/configs', { auth, body: { theme: 'dots', time: 60 } })).status).toBe(
        200,
      );
    }
    const res = await t.request('DELETE', '/configs', { auth: me.auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Config deleted', data: null });
    expect(await saved(me.uid)).toBeUndefined();
    expect((await t.request('GET', '/configs', { auth: me.auth })).body.data).toEqual(defaultConfig());
    expect(await saved(other.uid)).toEqual({ uid: other.uid });
    expect((await t.request('GET', '/configs', { auth: other.auth })).body.data).toMatchObject({
      theme: 'dots',
      time: 60,
    });
  });

  it('answers 200 when nothing was saved', async () => {
    const { auth } = await signedIn();
    const res = await t.request('DELETE', '/configs', { auth });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'Config deleted', data: null });
  });

  it('is Bearer-only', async () => {
    await expectBearerOnly(t, 'DELETE', '/configs');
  });

  it('is limited by the configDelete class (120 per hour per user)', async () => {
    const { auth } = await signedIn();
    for (let i = 0; i < 120; i += 1) {
      expect((await t.request('DELETE', '/configs', { auth, ip: freshIp() })).status).toBe(200);
    }
    const limited = await t.request('DELETE', '/configs', { auth, ip: freshIp() });
    expect(limited.status).toBe(429);
    // Its own counter: reading the configuration is still allowed.
    expect((await t.request('GET', '/configs', { auth, ip: freshIp() })).status).toBe(200);
  });
});
