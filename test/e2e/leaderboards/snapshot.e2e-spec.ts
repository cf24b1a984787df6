import { createTestApp, type TestApp } from '../../support/test-app';
import { eligible, rebuild, seedPb } from './support';

interface Page {
  entries: { uid: string; rank: number; wpm: number; acc: number }[];
  count: number;
}

describe('all-time snapshot', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { rateLimit: { globalPerMinute: 100_000, overrides: { leaderboardsGet: { max: 100_000 } } } },
    });
  });
  afterAll(() => t.close());

  const board = (language: string, mode2 = '15', pageSize = 200) =>
    t.request<{ data: Page }>('GET', '/leaderboards', {
      query: { language, mode: 'time', mode2, pageSize },
    });

  it('orders exactly by wpm, then acc, then the older PB, whatever the decimals', async () => {
    const lang = 'latvian';
    // [wpm, acc, timestamp] in the expected order: values a packed sort key could confuse.
    const expected: [number, number, number][] = [
      [100.015, 50, 1],
      [100.01, 60, 1],
      [100.01, 59.99, 1],
      [100.005, 99, 1],
      [100.0049, 100, 1],
      [100, 100, 5],
      [100, 100, 6],
      [100, 99.999, 1],
      [100, 99.99, 1],
      [99.99, 100, 1],
      [0.01, 100, 1],
    ];
    const users = await Promise.all(expected.map(() => eligible(t)));
    // Inserted in reverse, so insertion order cannot explain the result.
    for (let i = expected.length - 1; i >= 0; i--) {
      const [wpm, acc, timestamp] = expected[i]!;
      await seedPb(t, users[i]!.uid, { language: lang, wpm, acc, timestamp });
    }
    await rebuild(t);
    const res = await board(lang);
    expect(res.body.data.entries.map((e) => [e.wpm, e.acc, e.rank])).toEqual(
      expected.map(([wpm, acc], i) => [wpm, acc, i + 1]),
    );
  });

  it('numbers every board from 1, whatever boards come before it', async () => {
    const users = await Promise.all(Array.from({ length: 3 }, () => eligible(t)));
    for (const [i, u] of users.entries()) {
      await seedPb(t, u.uid, { language: 'lithuanian', mode2: '15', wpm: 50 + i });
      await seedPb(t, u.uid, { language: 'lithuanian', mode2: '60', wpm: 80 - i });
    }
    await rebuild(t);
    expect((await board('lithuanian', '15')).body.data.entries.map((e) => [e.uid, e.rank])).toEqual([
      [users[2]!.uid, 1],
      [users[1]!.uid, 2],
      [users[0]!.uid, 3],
    ]);
    expect((await board('lithuanian', '60')).body.data.entries.map((e) => [e.uid, e.rank])).toEqual([
      [users[0]!.uid, 1],
      [users[1]!.uid, 2],
      [users[2]!.uid, 3],
    ]);
  });

  it('readers see the old snapshot or the new one while rebuilds swap, never a half-built board', async () => {
    const lang = 'slovenian';
    const users = await Promise.all(Array.from({ length: 40 }, () => eligible(t)));
    let seeded = 0;
    const seedNext = async (n: number) => {
      for (const u of users.slice(seeded, seeded + n))
        await seedPb(t, u.uid, { language: lang, wpm: 50 + seeded });
      seeded += n;
    };
    await seedNext(10);
    await rebuild(t);

    let building = true;
    const seen: { status: number; count: number; entries: number }[] = [];
    const reader = (async () => {
      while (building) {
        const res = await board(lang);
        seen.push({
          status: res.status,
          count: res.body.data?.count ?? -1,
          entries: res.body.data?.entries.length ?? -1,
        });
      }
    })();
    for (let i = 0; i < 3; i++) {
      await seedNext(10);
      await rebuild(t);
    }
    building = false;
    await reader;
    expect(seen.length).toBeGreaterThan(0);
    for (const read of seen) {
      expect(read.status).toBe(200);
      // A complete board: every counted entry is there, and the size is one the board really had.
      expect(read.entries).toBe(read.count);
      expect([10, 20, 30, 40]).toContain(read.count);
    }
    expect((await board(lang)).body.data.count).toBe(40);
  });

  it('a deleted account leaves every board at once and the ranks below close up', async () => {
    const lang = 'romanian';
    const [a, b, c] = await Promise.all([eligible(t), eligible(t), eligible(t)]);
    await seedPb(t, a.uid, { language: lang, wpm: 90 });
    await seedPb(t, b.uid, { language: lang, wpm: 80 });
    await seedPb(t, c.uid, { language: lang, wpm: 70 });
    await rebuild(t);
    expect((await t.request('DELETE', '/users', { auth: await t.bearer(b.uid) })).status).toBe(200);
    expect((await board(lang)).body.data.entries.map((e) => [e.uid, e.rank])).toEqual([
      [a.uid, 1],
      [c.uid, 2],
    ]);
    expect(
      await t.db.selectFrom('leaderboard_entries').select('uid').where('uid', '=', b.uid).execute(),
    ).toEqual([]);
    await rebuild(t);
    expect((await board(lang)).body.data.entries.map((e) => [e.uid, e.rank])).toEqual([
      [a.uid, 1],
      [c.uid, 2],
    ]);
  });

  it('an account reset takes the user off the boards at once (their PBs are gone)', async () => {
    const lang = 'croatian';
    const me = await eligible(t);
    await seedPb(t, me.uid, { language: lang });
    await rebuild(t);
    expect((await board(lang)).body.data.count).toBe(1);
    expect((await t.request('PATCH', '/users/reset', { auth: await t.bearer(me.uid) })).status).toBe(200);
    expect((await board(lang)).body.data.entries).toEqual([]);
  });

  describe('profile allTimeLbs', () => {
    it('gives rank and count on english time 15 and 60, and nothing for a board the user is not on', async () => {
      const [top, me] = await Promise.all([eligible(t), eligible(t)]);
      await seedPb(t, top.uid, { mode2: '15', wpm: 300 });
      await seedPb(t, me.uid, { mode2: '15', wpm: 299 });
      await rebuild(t);
      const count = (await board('english', '15')).body.data.count;
      const expected = { time: { '15': { english: { rank: 2, count } }, '60': {} } };

      const profile = await t.request<{ data: { allTimeLbs: unknown } }>('GET', `/users/${me.name}/profile`);
      expect(profile.status).toBe(200);
      expect(profile.body.data.allTimeLbs).toEqual(expected);
      const byUid = await t.request<{ data: { allTimeLbs: unknown } }>('GET', `/users/${me.uid}/profile`, {
        query: { isUid: true },
      });
      expect(byUid.body.data.allTimeLbs).toEqual(expected);
      const own = await t.request<{ data: { allTimeLbs: unknown } }>('GET', '/users', {
        auth: await t.bearer(me.uid),
      });
      expect(own.body.data.allTimeLbs).toEqual(expected);
    });

    it('is empty for a user on no board', async () => {
      const me = await eligible(t);
      const profile = await t.request<{ data: { allTimeLbs: unknown } }>('GET', `/users/${me.name}/profile`);
      expect(profile.body.data.allTimeLbs).toEqual({ time: { '15': {}, '60': {} } });
    });
  });
});
