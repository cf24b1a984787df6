import { STORE_UNAVAILABLE_MESSAGE } from '../../../src/common/filters/store-errors';
import { createUser } from '../../support/factories';
import { createTestStores } from '../../support/stores';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy';
import { createTestApp, type TestApp } from '../../support/test-app';
import { boardResult, resultCount, signed, type SubmitData } from '../results/result-factory';

// The app reaches PostgreSQL through a proxy this test cuts: the database becomes unreachable for this app only, and
// comes back without the app being restarted.
describe('PostgreSQL unreachable', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let uid: string;
  let auth: string;

  beforeAll(async () => {
    const stores = await createTestStores();
    const url = new URL(stores.databaseUrl);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port) });
    url.port = String(proxy.port);
    t = await createTestApp({
      stores: { ...stores, databaseUrl: url.toString() },
      // Every request reads the configuration from the database, so every request meets the outage.
      env: { configCacheMs: 0, databaseConnectTimeoutMs: 1000 },
    });
    ({ uid } = await createUser(t.db));
    auth = await t.bearer(uid);
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
  });

  const submit = () =>
    t.request<{ data: SubmitData }>('POST', '/results', {
      auth,
      body: { result: signed(boardResult(), uid) },
    });

  it('answers 503 in the envelope while it is down, and serves again once it is back', async () => {
    expect((await submit()).status).toBe(200);
    t.clock.advance(20_000);

    await proxy.cut();
    const started = Date.now();
    const down = await Promise.all([
      submit(),
      t.request('GET', '/results', { auth }),
      t.request('GET', '/leaderboards', { query: { language: 'english', mode: 'time', mode2: '15' } }),
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const res of down) {
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ message: STORE_UNAVAILABLE_MESSAGE, data: null });
    }

    // No restart: the pool drops the dead connections and opens new ones.
    await proxy.restore();
    t.clock.advance(20_000);
    const back = await submit();
    expect(back.status).toBe(200);
    const list = await t.request<{ data: unknown[] }>('GET', '/results', { auth });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(await resultCount(t.db, uid)).toBe(2);
  }, 30_000);
});
