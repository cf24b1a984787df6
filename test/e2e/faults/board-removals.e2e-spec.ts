import Redis from 'ioredis';
import { AdminService } from '../../../src/modules/admin/admin.service';
import { BoardCatchUpService } from '../../../src/modules/leaderboards/board-catch-up.service';
import { AccountManagementService } from '../../../src/modules/users/account-management.service';
import { createUser } from '../../support/factories';
import { createTestStores, type TestStores } from '../../support/stores';
import { startTcpProxy, type TcpProxy } from '../../support/tcp-proxy';
import { createTestApp, type TestApp } from '../../support/test-app';
import { boardResult, signed } from '../results/result-factory';

const NOON = Date.UTC(2026, 10, 18, 12);
const DAY_MS = 86_400_000;
const BOARD = { language: 'english', mode: 'time', mode2: '15' };

interface Entry {
  uid: string;
  rank: number;
}

/**
 * Issue 24, item 2: a ban, an opt-out, a reset and a deletion made while Redis was unreachable take the user off the
 * daily and weekly boards once it is back. Redis sits behind a TCP proxy: cutting it is an outage that keeps the data
 * (a network partition, or a Redis that persisted its boards), so nothing but the queued removals can take them off.
 */
describe('daily and weekly boards after a Redis outage', () => {
  let stores: TestStores;
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: Redis;

  beforeAll(async () => {
    const own = await createTestStores();
    const target = new URL(own.redisUrl);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) });
    stores = { ...own, redisUrl: `redis://127.0.0.1:${proxy.port}${target.pathname}` };
    direct = new Redis(own.redisUrl);
    t = await createTestApp({
      stores,
      now: NOON - DAY_MS,
      env: {
        rateLimit: {
          globalPerMinute: 100_000,
          overrides: { resultsAdd: { max: 10_000 }, leaderboardsGet: { max: 10_000 } },
        },
      },
      configuration: {
        users: { xp: { enabled: true, gainMultiplier: 1, maxDailyBonus: 100, minDailyBonus: 5 } },
      },
    });
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    direct?.disconnect();
  });

  async function submit(uid: string, wpm: number): Promise<string> {
    const auth = await t.bearer(uid);
    const res = await t.request('POST', '/results', {
      auth,
      body: { result: signed(boardResult({ wpm, acc: 97 }), uid) },
    });
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    return auth;
  }

  const board = async (url: string, query: Record<string, string | number> = {}) => {
    const res = await t.request<{ data: { entries: Entry[] } }>('GET', url, { query });
    expect(res.status).toBe(200);
    return res.body.data.entries.map(({ uid, rank }) => [uid, rank]);
  };
  const boards = async () => ({
    today: await board('/leaderboards/daily', BOARD),
    yesterday: await board('/leaderboards/daily', { ...BOARD, daysBefore: 1 }),
    week: (await board('/leaderboards/xp/weekly')).map(([uid]) => uid).sort(),
    weekRanks: (await board('/leaderboards/xp/weekly')).map(([, rank]) => rank),
  });
  const queued = async () =>
    (
      await t.db.selectFrom('leaderboard_board_removals').select(['uid', 'reason']).orderBy('id').execute()
    ).map((row) => [row.uid, row.reason]);
  async function waitFor(done: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it('takes banned, opted-out, reset and deleted users off every daily and weekly board kept, ranks closed up', async () => {
    // Interleaved, so the ranks of those who stay must close up.
    const [banned, keep1, optedOut, keep2, reset, deleted, keep3] = await Promise.all(
      [100, 95, 90, 85, 80, 75, 70].map(() => createUser(t.db, { timeTyping: 10_000 })),
    );
    const everyone = [banned, keep1, optedOut, keep2, reset, deleted, keep3].map((u) => u!.uid);
    const wpms = [100, 95, 90, 85, 80, 75, 70];
    // Yesterday's board and today's: the removals must reach every day still kept.
    for (const [i, uid] of everyone.entries()) await submit(uid, wpms[i]! - 1);
    t.clock.advance(DAY_MS);
    const auths = new Map<string, string>();
    for (const [i, uid] of everyone.entries()) auths.set(uid, await submit(uid, wpms[i]!));
    const ranked = everyone.map((uid, i) => [uid, i + 1]);
    expect(await boards()).toEqual({
      today: ranked,
      yesterday: ranked,
      week: [...everyone].sort(),
      weekRanks: [1, 2, 3, 4, 5, 6, 7],
    });

    await proxy.cut();
    await waitFor(
      async () => (await t.request('GET', '/leaderboards/daily', { query: BOARD })).status === 503,
      'the outage',
    );

    // The CLI's ban; the opt-out through the API (the token was verified before the outage, so it is cached);
    // the reset and the deletion as their routes run them (their after-commit steps that need Redis fail).
    await t.app.get(AdminService).setBanned(banned!.uid, true);
    const optOut = await t.request('POST', '/users/optOutOfLeaderboards', { auth: auths.get(optedOut!.uid) });
    expect(optOut.status).toBe(200);
    const accounts = t.app.get(AccountManagementService);
    await accounts.resetAccount(reset!.uid).catch(() => undefined);
    await accounts.deleteAccount(deleted!.uid).catch(() => undefined);
    expect(await t.db.selectFrom('users').select('uid').where('uid', '=', deleted!.uid).execute()).toEqual(
      [],
    );

    // Redis kept every entry; PostgreSQL holds the removals, one per change.
    expect(await direct.dbsize()).toBeGreaterThan(0);
    expect(await queued()).toEqual([
      [banned!.uid, 'ban'],
      [optedOut!.uid, 'optOut'],
      [reset!.uid, 'reset'],
      [deleted!.uid, 'delete'],
    ]);

    await proxy.restore();
    const catchUp = t.app.get(BoardCatchUpService);
    await waitFor(
      async () =>
        (await t.request('GET', '/leaderboards/daily', { query: BOARD })).status === 200 && !catchUp.pending,
      'the catch-up',
    );

    const stay = [keep1, keep2, keep3].map((u) => u!.uid);
    const closedUp = stay.map((uid, i) => [uid, i + 1]);
    expect(await boards()).toEqual({
      today: closedUp,
      yesterday: closedUp,
      week: [...stay].sort(),
      weekRanks: [1, 2, 3],
    });
    expect(await queued()).toEqual([]);
  }, 60_000);

  it('applies removals nobody applied (a crash after the commit) once, with two replicas racing', async () => {
    const replica = await createTestApp({ stores, now: t.clock.now() });
    try {
      const user = await createUser(t.db, { timeTyping: 10_000 });
      await submit(user.uid, 98);
      expect((await board('/leaderboards/daily', BOARD))[0]).toEqual([user.uid, 1]);
      // The ban commits and its process dies before its post-commit purge: only the queued row remains.
      await t.db.updateTable('users').set({ banned: true }).where('uid', '=', user.uid).execute();
      expect(await queued()).toEqual([[user.uid, 'ban']]);

      const reports = await Promise.all([
        t.app.get(BoardCatchUpService).catchUp(),
        replica.app.get(BoardCatchUpService).catchUp(),
      ]);
      // The advisory lock lets one pass run; the other is refused (and retried later) or finds nothing left.
      const removed = reports.map((r) => r?.removedUsers ?? 0);
      expect(removed.sort()).toEqual([0, 1]);
      expect(await queued()).toEqual([]);
      const daily = await board('/leaderboards/daily', BOARD);
      expect(daily.map(([uid]) => uid)).not.toContain(user.uid);
      expect(daily.map(([, rank]) => rank)).toEqual(daily.map((_, i) => i + 1));
      expect((await board('/leaderboards/xp/weekly')).map(([uid]) => uid)).not.toContain(user.uid);
    } finally {
      await replica.close();
    }
  }, 30_000);

  it('rebuilds every day and week still kept when Redis comes back empty, not only the days since it went', async () => {
    const before = await boards();
    expect(before.yesterday.length).toBeGreaterThan(0);
    await proxy.cut();
    await waitFor(
      async () => (await t.request('GET', '/leaderboards/daily', { query: BOARD })).status === 503,
      'the outage',
    );
    // Redis restarted without its data.
    await direct.flushdb();
    await proxy.restore();
    const catchUp = t.app.get(BoardCatchUpService);
    await waitFor(async () => {
      const res = await t.request<{ data: { entries: Entry[] } }>('GET', '/leaderboards/daily', {
        query: { ...BOARD, daysBefore: 1 },
      });
      return res.status === 200 && res.body.data.entries.length > 0 && !catchUp.pending;
    }, "yesterday's board");
    expect(await boards()).toEqual(before);
  }, 60_000);
});
