import { freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';
import { afterResult, befriend, eligible, rebuild, savedEvent, seedPb, type Member } from './support';

interface Entry {
  uid: string;
  rank: number;
  globalRank?: number;
  friendsRank?: number;
  isPremium?: boolean;
}
interface Page {
  entries: Entry[];
  count: number;
  pageSize: number;
  minWpm?: number;
}

const BOARD = { language: 'english', mode: 'time', mode2: '60' };
const ROUTES: [string, string, Record<string, string>][] = [
  ['all-time', '/leaderboards', BOARD],
  ['daily', '/leaderboards/daily', BOARD],
  ['weekly XP', '/leaderboards/xp/weekly', {}],
];
const RANK_ROUTES: [string, string, Record<string, string>][] = [
  ['all-time', '/leaderboards/rank', BOARD],
  ['daily', '/leaderboards/daily/rank', BOARD],
  ['weekly XP', '/leaderboards/xp/weekly/rank', {}],
];

/**
 * friendsOnly on the three boards: the caller and their accepted connections, renumbered (`rank`), with the place on
 * the whole board kept (`globalRank`); `friendsRank` repeats the friends place for the original platform's clients.
 */
describe('friendsOnly boards', () => {
  let t: TestApp;
  let me: Member;
  let friends: Member[];
  let strangers: Member[];
  /** Everyone on the boards, best first: score 200 - i for the i-th. */
  let order: Member[];

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        rateLimit: { globalPerMinute: 100_000, overrides: { leaderboardsGet: { max: 100_000 } } },
      },
      configuration: { users: { premium: { enabled: true } } },
    });
    me = await eligible(t, { premiumExpiresAt: -1 });
    friends = await Promise.all(Array.from({ length: 12 }, () => eligible(t)));
    strangers = await Promise.all(Array.from({ length: 6 }, () => eligible(t)));
    // Accepted either way round; pending, rejected and blocked connections do not make friends.
    for (const [i, f] of friends.entries()) await befriend(t, i % 2 ? me.uid : f.uid, i % 2 ? f.uid : me.uid);
    await befriend(t, me.uid, strangers[0]!.uid, 'pending');
    await befriend(t, strangers[1]!.uid, me.uid, 'rejected');
    await befriend(t, strangers[2]!.uid, me.uid, 'blocked');
    // Interleave strangers and friends so global and friends ranks differ.
    order = [
      strangers[3]!,
      friends[0]!,
      strangers[0]!,
      me,
      ...friends.slice(1, 6),
      strangers[1]!,
      ...friends.slice(6),
    ];
    order.push(strangers[2]!, strangers[4]!, strangers[5]!);
    for (const [i, u] of order.entries()) {
      const wpm = 200 - i;
      await seedPb(t, u.uid, { mode2: '60', wpm });
      const account = u === me ? { premiumExpiresAt: -1 } : {};
      await afterResult(t, savedEvent(t, { uid: u.uid, xp: wpm, result: { mode2: '60', wpm }, account }));
    }
    await rebuild(t);
  });
  afterAll(() => t.close());

  const get = (path: string, query: Record<string, string | number | boolean>, auth?: string) =>
    t.request<{ data: Page }>('GET', path, { query, auth, ip: freshIp() });
  const expectedFriendsBoard = () => order.filter((u) => u === me || friends.includes(u));

  describe.each(ROUTES)('%s', (_name, path, base) => {
    it('lists the caller and accepted connections, renumbered, with the global rank kept', async () => {
      const res = await get(path, { ...base, friendsOnly: true }, me.auth);
      expect(res.status).toBe(200);
      const expected = expectedFriendsBoard();
      expect(res.body.data.entries.map((e) => [e.uid, e.rank, e.friendsRank, e.globalRank])).toEqual(
        expected.map((u, i) => [u.uid, i + 1, i + 1, order.indexOf(u) + 1]),
      );
      expect(res.body.data.count).toBe(13);
    });

    it('pages the friends board', async () => {
      const res = await get(path, { ...base, friendsOnly: true, page: 1, pageSize: 10 }, me.auth);
      expect(res.body.data.entries.map((e) => e.rank)).toEqual([11, 12, 13]);
      expect(res.body.data).toMatchObject({ count: 13, pageSize: 10 });
    });

    it('a caller without accepted connections sees only themselves', async () => {
      const lonely = strangers[4]!;
      const res = await get(path, { ...base, friendsOnly: true }, lonely.auth);
      expect(res.body.data.entries.map((e) => [e.uid, e.rank, e.globalRank])).toEqual([
        [lonely.uid, 1, order.indexOf(lonely) + 1],
      ]);
      expect(res.body.data.count).toBe(1);
    });

    it('needs a signed-in caller: 401 without one; the whole board otherwise', async () => {
      const anonymous = await get(path, { ...base, friendsOnly: true });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: 'Unauthorized', data: null });
      const whole = await get(path, { ...base, friendsOnly: false });
      expect(whole.body.data.count).toBe(order.length);
    });

    it('answers 503 while connections are disabled', async () => {
      await t.configure({ connections: { enabled: false } });
      try {
        const res = await get(path, { ...base, friendsOnly: true }, me.auth);
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: 'This feature is currently unavailable.', data: null });
      } finally {
        await t.configure({ connections: { enabled: true } });
      }
    });

    it('friend entries carry isPremium only while premium is enabled', async () => {
      const mine = async () =>
        (await get(path, { ...base, friendsOnly: true }, me.auth)).body.data.entries.find(
          (e) => e.uid === me.uid,
        );
      expect((await mine())?.isPremium).toBe(true);
      await t.configure({ users: { premium: { enabled: false } } });
      try {
        expect(await mine()).not.toHaveProperty('isPremium');
      } finally {
        await t.configure({ users: { premium: { enabled: true } } });
      }
    });
  });

  describe.each(RANK_ROUTES)('%s rank', (_name, path, base) => {
    it('friendsOnly gives the caller’s place among friends, and the global one', async () => {
      const res = await get(path, { ...base, friendsOnly: true }, me.auth);
      expect(res.status).toBe(200);
      const friendsPlace = expectedFriendsBoard().indexOf(me) + 1;
      expect(res.body.data).toMatchObject({
        uid: me.uid,
        rank: friendsPlace,
        friendsRank: friendsPlace,
        globalRank: order.indexOf(me) + 1,
      });
      const global = await get(path, base, me.auth);
      expect(global.body.data).toMatchObject({ uid: me.uid, rank: order.indexOf(me) + 1 });
      expect(global.body.data).not.toHaveProperty('globalRank');
    });
  });
});
