import { AdminService } from '../../../src/modules/admin/admin.service';
import { createUser } from '../../support/factories';
import { freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';
import { clientResult, signed, submit } from '../results/result-factory';
import { afterResult, DAY, eligible, MINUTE, savedEvent } from './support';

interface XpEntry {
  uid: string;
  name: string;
  rank: number;
  totalXp: number;
  timeTypedSeconds: number;
  lastActivityTimestamp: number;
  badgeId?: number;
  chatId?: string;
  chatAvatar?: string;
  isPremium?: boolean;
}
interface XpPage {
  entries: XpEntry[];
  count: number;
  pageSize: number;
}

// Wednesday 2026-11-25 12:00 UTC; its ISO week started Monday 2026-11-23.
const WEDNESDAY = Date.UTC(2026, 10, 25, 12);
const MONDAY = Date.UTC(2026, 10, 23);

describe('weekly XP leaderboard', () => {
  let t: TestApp;

  beforeEach(async () => {
    // A board per test: the weekly board is one per week, so every test gets its own app and stores.
    t = await createTestApp({
      now: WEDNESDAY,
      env: {
        rateLimit: {
          globalPerMinute: 100_000,
          overrides: { leaderboardsGet: { max: 100_000 }, resultsAdd: { max: 100_000 } },
        },
      },
      // Daily boards off: these results would enter them too.
      configuration: {
        users: { xp: { enabled: true, gainMultiplier: 1 } },
        dailyLeaderboards: { enabled: false },
      },
    });
  });
  afterEach(() => t.close());

  const weekly = (query: Record<string, string | number | boolean> = {}, path = '/leaderboards/xp/weekly') =>
    t.request<{ data: XpPage }>('GET', path, { query, ip: freshIp() });
  const add = (uid: string, xp: number, o: Partial<Parameters<typeof savedEvent>[1]> = {}) =>
    afterResult(t, savedEvent(t, { uid, xp, ...o }));

  it('a submitted result adds its XP and returns weeklyXpLeaderboardRank; the entry has every spec field', async () => {
    const me = await eligible(t);
    await t.db
      .updateTable('users')
      .set({ chat_id: 'c9', chat_avatar: 'av9' })
      .where('uid', '=', me.uid)
      .execute();
    t.clock.advance(MINUTE);
    const res = await submit(
      t,
      me.uid,
      signed(clientResult({ testDuration: 30, afkDuration: 2, incompleteTestSeconds: 4 }), me.uid),
      await t.bearer(me.uid),
    );
    expect(res.status).toBe(200);
    const data = res.body.data as { xp: number; weeklyXpLeaderboardRank?: number };
    expect(data.xp).toBeGreaterThan(0);
    expect(data.weeklyXpLeaderboardRank).toBe(1);

    const board = await weekly();
    expect(board.status).toBe(200);
    expect(board.body.message).toBe('Weekly xp leaderboard retrieved');
    expect(board.body.data).toEqual({
      entries: [
        {
          uid: me.uid,
          name: me.name,
          rank: 1,
          totalXp: data.xp,
          timeTypedSeconds: 32,
          lastActivityTimestamp: Math.floor(t.clock.now() / 1000) * 1000,
          chatId: 'c9',
          chatAvatar: 'av9',
        },
      ],
      count: 1,
      pageSize: 50,
    });
  });

  it('adds up XP and time typed over the week (100 + 50 → 150, 5 s + 5 s → 10 s) and orders by total XP', async () => {
    const [a, b] = await Promise.all([eligible(t), eligible(t)]);
    const five = { result: { testDuration: 5 } };
    expect(await add(a.uid, 100, five)).toEqual({ weeklyXpLeaderboardRank: 1 });
    expect(await add(b.uid, 120, five)).toEqual({ weeklyXpLeaderboardRank: 1 });
    expect(await add(a.uid, 50, five)).toEqual({ weeklyXpLeaderboardRank: 1 });
    const board = await weekly();
    expect(board.body.data.entries.map((e) => [e.uid, e.totalXp, e.timeTypedSeconds, e.rank])).toEqual([
      [a.uid, 150, 10, 1],
      [b.uid, 120, 5, 2],
    ]);
  });

  it('counts a result once even when its post-commit step is retried', async () => {
    const me = await eligible(t);
    const event = savedEvent(t, { uid: me.uid, xp: 40, result: { testDuration: 15 } });
    await afterResult(t, event);
    await afterResult(t, event);
    expect((await weekly()).body.data.entries.map((e) => [e.totalXp, e.timeTypedSeconds])).toEqual([
      [40, 15],
    ]);
  });

  it('adds nothing for results without XP, for ineligible users, or while the board is disabled', async () => {
    const me = await eligible(t);
    expect(await add(me.uid, 0)).toEqual({});
    for (const account of [{ banned: true }, { lbOptOut: true }, { timeTypingBefore: 7200 }])
      expect(await add(me.uid, 10, { account })).toEqual({});
    await t.configure({ leaderboards: { weeklyXp: { enabled: false } } });
    expect(await add(me.uid, 10)).toEqual({});
    await t.configure({ leaderboards: { weeklyXp: { enabled: true } } });
    expect((await weekly()).body.data.count).toBe(0);
    // And a real submission of a newcomer (not enough typing time) earns XP but no weekly rank.
    const newcomer = await createUser(t.db, { timeTyping: 0 });
    t.clock.advance(MINUTE);
    const res = await submit(
      t,
      newcomer.uid,
      signed(clientResult(), newcomer.uid),
      await t.bearer(newcomer.uid),
    );
    expect((res.body.data as { xp: number }).xp).toBeGreaterThan(0);
    expect(res.body.data).not.toHaveProperty('weeklyXpLeaderboardRank');
  });

  it('answers 503 while the weekly board is disabled, on both paths', async () => {
    await t.configure({ leaderboards: { weeklyXp: { enabled: false } } });
    for (const path of ['/leaderboards/xp/weekly', '/leaderboards/weekly-xp']) {
      const res = await weekly({ pageSize: 1 }, path);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        message: 'Weekly XP leaderboards are not available at this time.',
        data: null,
      });
    }
  });

  it('serves the same board at /leaderboards/weekly-xp', async () => {
    const me = await eligible(t);
    await add(me.uid, 7);
    const [a, b] = await Promise.all([weekly(), weekly({}, '/leaderboards/weekly-xp')]);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body.data.entries).toHaveLength(1);
  });

  it('weeks start on Monday 00:00 UTC; last week stays readable with weeksBefore=1', async () => {
    const me = await eligible(t);
    t.clock.set(MONDAY - 1000); // Sunday 23:59:59
    await add(me.uid, 30);
    t.clock.set(MONDAY + 1000); // Monday 00:00:01
    await add(me.uid, 5);
    expect((await weekly()).body.data.entries.map((e) => e.totalXp)).toEqual([5]);
    expect((await weekly({ weeksBefore: 1 })).body.data.entries.map((e) => e.totalXp)).toEqual([30]);
    t.clock.set(MONDAY + 7 * DAY);
    expect((await weekly({ weeksBefore: 1 })).body.data.entries.map((e) => e.totalXp)).toEqual([5]);
    expect((await weekly()).body.data.entries).toEqual([]);
  });

  it('keeps a week expirationTimeInDays after it began', async () => {
    const me = await eligible(t);
    await add(me.uid, 30);
    const ttl = await t.redis.pttl(`lb:{weekly-xp:${MONDAY}}:scores`);
    expect(Math.abs(ttl - (MONDAY + 15 * DAY - t.clock.now()))).toBeLessThan(5000);
  });

  it('pages with global ranks and validates the query', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => eligible(t)));
    for (const [i, u] of users.entries()) await add(u.uid, 100 - i);
    const second = await weekly({ page: 1, pageSize: 10 });
    expect(second.body.data.entries.map((e) => [e.totalXp, e.rank])).toEqual([
      [90, 11],
      [89, 12],
    ]);
    expect(second.body.data).toMatchObject({ count: 12, pageSize: 10 });
    for (const [query, error] of [
      [{ pageSize: 5 }, '"pageSize" must not be less than 10'],
      [{ page: -1 }, '"page" must not be less than 0'],
      [{ weeksBefore: 2 }, '"weeksBefore" must be one of the following values: 0, 1'],
      [{ language: 'english' }, "Unrecognized key(s) in object: 'language'"],
    ] as const) {
      const res = await weekly(query);
      expect({ query, status: res.status, errors: res.body.validationErrors }).toEqual({
        query,
        status: 400,
        errors: [error],
      });
    }
  });

  it('strips isPremium while premium is disabled server-wide', async () => {
    const me = await eligible(t, { premiumExpiresAt: -1 });
    await t.configure({ users: { premium: { enabled: true } } });
    await add(me.uid, 10, { account: { premiumExpiresAt: -1, selectedBadgeId: 2 } });
    expect((await weekly()).body.data.entries[0]).toMatchObject({ isPremium: true, badgeId: 2 });
    await t.configure({ users: { premium: { enabled: false } } });
    const entry = (await weekly()).body.data.entries[0];
    expect(entry).toMatchObject({ badgeId: 2 });
    expect(entry).not.toHaveProperty('isPremium');
  });

  it('GET /leaderboards/xp/weekly/rank: the caller’s entry or null; Bearer only', async () => {
    const [a, b] = await Promise.all([eligible(t), eligible(t)]);
    await add(a.uid, 20);
    const mine = await t.request('GET', '/leaderboards/xp/weekly/rank', { auth: a.auth });
    expect(mine.body).toMatchObject({
      message: 'Weekly xp leaderboard rank retrieved',
      data: { uid: a.uid, rank: 1 },
    });
    expect((await t.request('GET', '/leaderboards/xp/weekly/rank', { auth: b.auth })).body.data).toBeNull();
    expect((await t.request('GET', '/leaderboards/xp/weekly/rank', { ip: freshIp() })).status).toBe(401);
  });

  it('opting out and bans remove the user from this and last week at once', async () => {
    const [optOut, banned, stays] = await Promise.all([eligible(t), eligible(t), eligible(t)]);
    for (const u of [optOut, banned, stays]) {
      await add(u.uid, 10, { timestamp: MONDAY - DAY });
      await add(u.uid, 10);
    }
    expect((await t.request('POST', '/users/optOutOfLeaderboards', { auth: optOut.auth })).status).toBe(200);
    await t.app.get(AdminService).setBanned(banned.uid, true);
    for (const weeksBefore of [0, 1])
      expect((await weekly({ weeksBefore })).body.data.entries.map((e) => e.uid)).toEqual([stays.uid]);
  });
});
