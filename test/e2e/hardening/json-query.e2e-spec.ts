import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { UNLIMITED_CONFIGURATION, UNLIMITED_ENV } from './support';

/**
 * Issue 13 item 1: the original web client sends every query value JSON-encoded (ts-rest's JSON query mode); other
 * clients send them bare. Both forms must validate identically on every route.
 */
describe('JSON query mode', () => {
  let t: TestApp;
  let auth: string;

  beforeAll(async () => {
    t = await createTestApp({ env: UNLIMITED_ENV, configuration: UNLIMITED_CONFIGURATION });
    const user = await createUser(t.db);
    auth = await t.bearer(user.uid);
  });
  afterAll(() => t.close());

  const get = (url: string) => t.request('GET', url, { auth });

  it.each([
    ['/leaderboards', 'language=english&mode=time&mode2=15&page=0&pageSize=50', 'Leaderboard retrieved'],
    [
      '/leaderboards',
      'language=%22english%22&mode=%22time%22&mode2=%2215%22&page=%220%22&pageSize=50&friendsOnly=false',
      'Leaderboard retrieved',
    ],
    [
      '/leaderboards/daily',
      'language=english&mode=time&mode2=60&daysBefore=1',
      'Daily leaderboard retrieved',
    ],
    [
      '/leaderboards/daily',
      'language=%22english%22&mode=%22time%22&mode2=%2260%22&daysBefore=%221%22&page=0',
      'Daily leaderboard retrieved',
    ],
    ['/leaderboards/rank', 'language=english&mode=words&mode2=25', 'Rank retrieved'],
    [
      '/leaderboards/rank',
      'language=english&mode=words&mode2=%2225%22&friendsOnly=%22false%22',
      'Rank retrieved',
    ],
    ['/users/personalBests', 'mode=time&mode2=15', 'Personal bests retrieved'],
    ['/users/personalBests', 'mode=%22time%22&mode2=%2215%22', 'Personal bests retrieved'],
    ['/connections', 'status=pending&type=incoming', 'Connections retrieved'],
    ['/connections', 'status=%5B%22pending%22%5D&type=%5B%22incoming%22%5D', 'Connections retrieved'],
    ['/connections', 'status=pending&status=accepted', 'Connections retrieved'],
    [
      '/leaderboards/xp/weekly',
      'page=%220%22&weeksBefore=1&friendsOnly=true',
      'Weekly xp leaderboard retrieved',
    ],
  ])('GET %s?%s → 200', async (path, query, message) => {
    const res = await get(`${path}?${query}`);
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 200, message });
  });

  it('reads both encodings of the board the same way', async () => {
    const bare = await get('/leaderboards?language=english&mode=time&mode2=60&page=0&pageSize=10');
    const encoded = await get(
      '/leaderboards?language=%22english%22&mode=%22time%22&mode2=%2260%22&page=%220%22',
    );
    expect(bare.status).toBe(200);
    expect((encoded.body.data as Record<string, unknown>).count).toEqual(
      (bare.body.data as Record<string, unknown>).count,
    );
  });

  it('still refuses a mode2 the board does not have, in either encoding, with the same message', async () => {
    const bare = await get('/leaderboards?language=english&mode=time&mode2=30');
    const encoded = await get('/leaderboards?language=english&mode=time&mode2=%2230%22');
    for (const res of [bare, encoded]) {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.validationErrors).toEqual([
        expect.stringMatching(/^"mode2" must be one of 15, 60 for time/),
      ]);
    }
  });

  it.each([
    ['/leaderboards?language=english&mode=time&mode2=15&page=%7B%22b%22%3A1%7D', '"page" '],
    ['/leaderboards?language=english&mode=time&mode2=%7B%22b%22%3A1%7D', '"mode2" '],
    ['/connections?status=%7B%22b%22%3A1%7D', '"status" '],
    ['/users/personalBests?mode=time&a=%7B%22b%22%3A1%7D', "Unrecognized key(s) in object: 'a'"],
    ['/results?limit=%5B1%2C2%5D', '"limit" '],
    ['/leaderboards?language=english&mode=time&mode2=15&friendsOnly=%22yes%22', '"friendsOnly" '],
  ])('refuses parsed objects and arrays where they do not belong: %s → 400', async (url, problem) => {
    const res = await get(url);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Invalid request parameters');
    expect(res.body.data).toBeNull();
    expect(res.body.validationErrors?.some((e) => e.startsWith(problem))).toBe(true);
  });

  it('keeps values that are not JSON as raw strings (and validates them as today)', async () => {
    const res = await get('/results?limit=abc');
    expect(res.status).toBe(400);
    expect(res.body.validationErrors).toContain('"limit" must be an integer number');
    const profile = await t.request('GET', '/users/someone/profile?isUid');
    expect(profile.status).toBe(404);
  });
});
