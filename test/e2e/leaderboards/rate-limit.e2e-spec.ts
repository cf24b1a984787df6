import { createTestApp, type TestApp } from '../../support/test-app';
import { eligible } from './support';

/** Spec "Limits": leaderboard reads 60 per minute, one class shared by every board route; ApeKeys have their own. */
describe('leaderboard read limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } } });
  });
  afterAll(() => t.close());

  const board = { language: 'english', mode: 'time', mode2: '15' };

  it('allows 60 reads a minute across the board routes, then answers 429', async () => {
    const ip = '10.99.0.1';
    const paths: [string, Record<string, string>][] = [
      ['/leaderboards', board],
      ['/leaderboards/daily', board],
      ['/leaderboards/xp/weekly', {}],
      ['/leaderboards/weekly-xp', {}],
    ];
    for (let i = 0; i < 60; i++) {
      const [path, query] = paths[i % paths.length]!;
      expect((await t.request('GET', path, { query, ip })).status).toBe(200);
    }
    const limited = await t.request('GET', '/leaderboards', { query: board, ip });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ message: 'Request limit reached, please try again later.', data: null });
    // Another caller has a counter of their own.
    expect((await t.request('GET', '/leaderboards', { query: board, ip: '10.99.0.2' })).status).toBe(200);
  });

  it('counts ApeKey calls of the rank route in a class of their own', async () => {
    const me = await eligible(t);
    const created = await t.request<{ data: { apeKey: string } }>('POST', '/ape-keys', {
      auth: me.auth,
      body: { name: 'lb', enabled: true },
    });
    for (let i = 0; i < 60; i++)
      expect((await t.request('GET', '/leaderboards/rank', { query: board, auth: me.auth })).status).toBe(
        200,
      );
    expect((await t.request('GET', '/leaderboards/rank', { query: board, auth: me.auth })).status).toBe(429);
    const viaKey = await t.request('GET', '/leaderboards/rank', {
      query: board,
      auth: `ApeKey ${created.body.data.apeKey}`,
    });
    expect(viaKey.status).toBe(200);
  });
});
