import fc from 'fast-check';
import { sql } from 'kysely';
import { AdminService } from '../../../src/modules/admin/admin.service';
import { AllTimeRepository } from '../../../src/modules/leaderboards/all-time.repository';
import { LeaderboardHooks } from '../../../src/modules/leaderboards/leaderboard-hooks';
import {
  LeaderboardSnapshotService,
  LIVE_BATCH,
} from '../../../src/modules/leaderboards/leaderboard-snapshot.service';
import { SnapshotRepository } from '../../../src/modules/leaderboards/snapshot.repository';
import { createUser } from '../../support/factories';
import { boardResult, signed } from '../results/result-factory';
import { createTestApp, type TestApp } from '../../support/test-app';
import { eligible, rebuild, seedPb, setUser, type Member } from './support';

interface Entry {
  uid: string;
  rank: number;
  wpm: number;
}
interface Page {
  entries: Entry[];
  count: number;
}

/** Live all-time ranks: queued personal-best changes applied between rebuilds (no rebuild in between). */
describe('live all-time ranks', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        rateLimit: {
          globalPerMinute: 100_000,
          overrides: { leaderboardsGet: { max: 100_000 }, adminLimit: { max: 10_000 } },
        },
      },
    });
  });
  afterAll(() => t.close());

  const live = async () => {
    const applied = await t.app.get(LeaderboardSnapshotService).applyLiveChanges();
    if (!applied) throw new Error('live update did not run');
    return applied;
  };
  const page = async (language: string, mode2 = '15', query: Record<string, number> = {}) => {
    const res = await t.request<{ data: Page }>('GET', '/leaderboards', {
      query: { language, mode: 'time', mode2, pageSize: 200, ...query },
    });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const ranks = async (language: string, mode2 = '15') =>
    (await page(language, mode2)).entries.map((e) => [e.uid, e.rank, e.wpm]);
  const rankOf = async (member: Member, language: string, mode2 = '15') => {
    const res = await t.request<{ data: Entry | null }>('GET', '/leaderboards/rank', {
      query: { language, mode: 'time', mode2 },
      auth: member.auth,
    });
    expect(res.status).toBe(200);
    return res.body.data;
  };
  /** A new personal best of an existing row, as the results path writes it (the trigger queues the change). */
  const improve = (uid: string, language: string, wpm: number, mode2 = '15') =>
    t.db
      .updateTable('personal_bests')
      .set({ wpm, raw: wpm + 2 })
      .where('uid', '=', uid)
      .where('language', '=', language)
      .where('mode', '=', 'time')
      .where('mode2', '=', mode2)
      .execute();

  async function threeOnBoard(language: string, mode2 = '15') {
    const [a, b, c] = await Promise.all([eligible(t), eligible(t), eligible(t)]);
    await seedPb(t, a.uid, { language, mode2, wpm: 100 });
    await seedPb(t, b.uid, { language, mode2, wpm: 90 });
    await seedPb(t, c.uid, { language, mode2, wpm: 80 });
    await rebuild(t);
    return [a, b, c] as const;
  }

  it('queues a change for every write of a board-qualifying personal best, in the same transaction', async () => {
    await rebuild(t); // creates the boards: only personal bests of a board that exists are mirrored
    const me = await eligible(t);
    const queued = () =>
      t.db.selectFrom('leaderboard_best_changes').select('board_id').where('uid', '=', me.uid).execute();
    await seedPb(t, me.uid, { language: 'icelandic', punctuation: true });
    expect(await queued()).toHaveLength(0);
    await seedPb(t, me.uid, { language: 'icelandic' });
    await improve(me.uid, 'icelandic', 120);
    await t.db.deleteFrom('personal_bests').where('uid', '=', me.uid).execute();
    expect(await queued()).toHaveLength(3);
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`UPDATE personal_bests SET wpm = 1 WHERE uid = ${me.uid}`.execute(trx);
        await seedPb({ ...t, db: trx } as unknown as TestApp, me.uid, { language: 'icelandic' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await queued()).toHaveLength(3);
  });

  it('a new personal best shows its rank on the page, in /leaderboards/rank and in the profile after one live update', async () => {
    const language = 'english';
    const mode2 = '60';
    const [a, b, c] = await threeOnBoard(language, mode2);
    await improve(c.uid, language, 95, mode2);
    // Not before the live update: the snapshot is what it was.
    expect((await rankOf(c, language, mode2))?.rank).toBe(3);

    await live();
    expect(await ranks(language, mode2)).toEqual([
      [a.uid, 1, 100],
      [c.uid, 2, 95],
      [b.uid, 3, 90],
    ]);
    expect(await rankOf(c, language, mode2)).toMatchObject({ uid: c.uid, rank: 2, wpm: 95 });
    expect(await rankOf(b, language, mode2)).toMatchObject({ rank: 3 });
    const profile = await t.request<{ data: { allTimeLbs: { time: Record<string, unknown> } } }>(
      'GET',
      `/users/${c.name}/profile`,
    );
    expect(profile.body.data.allTimeLbs.time['60']).toEqual({ english: { rank: 2, count: 3 } });
  });

  it('drains a backlog in one tick: batches of queue rows full of repeated pairs do not stop it (issue 30)', async () => {
    const language = 'romanian';
    const [a, b, c] = await threeOnBoard(language);
    // A burst: one user's board queued over twice a batch's worth of times, then another user's new best behind it.
    const { id: boardId } = await t.db
      .selectFrom('leaderboard_boards')
      .select('id')
      .where('language', '=', language)
      .where('mode', '=', 'time')
      .where('mode2', '=', '15')
      .executeTakeFirstOrThrow();
    await sql`
      INSERT INTO leaderboard_best_changes (uid, board_id)
      SELECT ${b.uid}, ${boardId} FROM generate_series(1, ${2 * LIVE_BATCH + 7})`.execute(t.db);
    await improve(c.uid, language, 110);
    const snapshot = t.app.get(LeaderboardSnapshotService);
    const first = await snapshot.applyLiveChanges();
    // Every row queued so far (this burst and whatever earlier tests left) in one hold of the lock.
    expect(first!.taken).toBeGreaterThanOrEqual(2 * LIVE_BATCH + 8);
    expect(first!.backlog).toBe(false);
    expect(await ranks(language)).toEqual([
      [c.uid, 1, 110],
      [a.uid, 2, 100],
      [b.uid, 3, 90],
    ]);
    const queued = await t.db.selectFrom('leaderboard_best_changes').select('id').execute();
    expect(queued).toEqual([]);
    expect(await snapshot.drainLiveChanges()).toBe(0);
  });

  it('a new user enters with their rank; the users below move down one and the count grows', async () => {
    const language = 'finnish';
    const [a, b, c] = await threeOnBoard(language);
    const d = await eligible(t);
    await seedPb(t, d.uid, { language, wpm: 85 });
    expect((await live()).added).toBeGreaterThanOrEqual(1);
    const data = await page(language);
    expect(data.entries.map((e) => [e.uid, e.rank])).toEqual([
      [a.uid, 1],
      [b.uid, 2],
      [d.uid, 3],
      [c.uid, 4],
    ]);
    expect(data.count).toBe(4);
    expect((await rankOf(c, language))?.rank).toBe(4);
    // Paging past the new entry counts it too.
    expect((await page(language, '15', { pageSize: 10, page: 0 })).entries.map((e) => e.rank)).toEqual([
      1, 2, 3, 4,
    ]);
  });

  it('a personal best of an ineligible user (banned, opted out, under minTimeTyping) does not enter', async () => {
    const language = 'estonian';
    const [a] = await threeOnBoard(language);
    const banned = await eligible(t, { banned: true });
    const optedOut = await eligible(t, { lbOptOut: true });
    const newcomer = await eligible(t, { timeTyping: 100 });
    for (const m of [banned, optedOut, newcomer]) await seedPb(t, m.uid, { language, wpm: 150 });
    await live();
    const data = await page(language);
    expect(data.entries[0]).toMatchObject({ uid: a.uid, rank: 1 });
    expect(data.count).toBe(3);
    expect(await rankOf(newcomer, language)).toBeNull();
    const stored = await t.db
      .selectFrom('leaderboard_entries')
      .select('uid')
      .where('uid', 'in', [banned.uid, optedOut.uid, newcomer.uid])
      .execute();
    expect(stored).toEqual([]);
    // Typing long enough later: the next personal best enters.
    await setUser(t, newcomer.uid, { time_typing: 10_000 });
    await improve(newcomer.uid, language, 151);
    await live();
    expect((await rankOf(newcomer, language))?.rank).toBe(1);
  });

  it('a ban or an opt-out removes the entry at once and closes the ranks below', async () => {
    const language = 'latvian';
    const [a, b, c] = await threeOnBoard(language);
    const d = await eligible(t);
    await seedPb(t, d.uid, { language, wpm: 70 });
    await live();

    await setUser(t, a.uid, { banned: true });
    await t.app.get(LeaderboardHooks).purge(a.uid);
    expect(await ranks(language)).toEqual([
      [b.uid, 1, 90],
      [c.uid, 2, 80],
      [d.uid, 3, 70],
    ]);
    const optOut = await t.request('POST', '/users/optOutOfLeaderboards', { auth: c.auth });
    expect(optOut.status).toBe(200);
    const data = await page(language);
    expect(data.entries.map((e) => [e.uid, e.rank])).toEqual([
      [b.uid, 1],
      [d.uid, 2],
    ]);
    expect(data.count).toBe(2);
    expect((await rankOf(d, language))?.rank).toBe(2);
    // A later live update (the queued pairs of the purge) and a rebuild agree.
    await live();
    expect((await page(language)).entries.map((e) => [e.uid, e.rank])).toEqual([
      [b.uid, 1],
      [d.uid, 2],
    ]);
    await rebuild(t);
    expect((await page(language)).entries.map((e) => [e.uid, e.rank])).toEqual([
      [b.uid, 1],
      [d.uid, 2],
    ]);
  });

  it("an unban (admin route or CLI service) queues the user's boards: one live update puts them back with their rank", async () => {
    const language = 'bulgarian';
    const [a, b, c] = await threeOnBoard(language);
    await seedPb(t, b.uid, { language, mode2: '60', wpm: 90 });
    await rebuild(t);
    const admin = await createUser(t.db, { permissions: ['admin'] });
    const adminAuth = await t.bearer(admin.uid);
    const toggle = async () => {
      const res = await t.request<{ data: { banned: boolean } }>('POST', '/admin/toggleBan', {
        auth: adminAuth,
        body: { uid: b.uid },
      });
      expect(res.status).toBe(200);
      return res.body.data.banned;
    };
    const queued = () =>
      t.db.selectFrom('leaderboard_best_changes').select('board_id').where('uid', '=', b.uid).execute();

    expect(await toggle()).toBe(true);
    await live();
    expect(await ranks(language)).toEqual([
      [a.uid, 1, 100],
      [c.uid, 2, 80],
    ]);
    expect(await queued()).toHaveLength(0);

    expect(await toggle()).toBe(false);
    expect(await queued()).toHaveLength(2); // both boards of the user, before any rebuild
    await live();
    expect(await ranks(language)).toEqual([
      [a.uid, 1, 100],
      [b.uid, 2, 90],
      [c.uid, 3, 80],
    ]);
    expect(await rankOf(b, language, '60')).toMatchObject({ uid: b.uid, rank: 1 });
    expect((await page(language)).count).toBe(3);

    // The CLI's path (AdminService.setBanned) does the same.
    await t.app.get(AdminService).setBanned(b.uid, true);
    await live();
    expect((await page(language)).count).toBe(2);
    await t.app.get(AdminService).setBanned(b.uid, false);
    await live();
    expect((await rankOf(b, language))?.rank).toBe(2);
    expect((await page(language)).count).toBe(3);
  });

  it('a result that is not a personal best but takes the user over minTimeTyping queues their boards: one live update ranks them', async () => {
    const language = 'german';
    const [a, b, c] = await threeOnBoard(language);
    // 7200 s is the default threshold: 7190 s typed is not eligible, one 15 s test more is.
    const crossing = await eligible(t, { timeTyping: 7190 });
    const short = await eligible(t, { timeTyping: 100 });
    for (const { uid } of [crossing, short]) {
      await seedPb(t, uid, { language, wpm: 95 });
      await seedPb(t, uid, { language, mode2: '60', wpm: 70 });
    }
    await live(); // the seeded bests of users not yet eligible: queued by the trigger, not entered
    expect((await page(language)).count).toBe(3);

    const queued = (uid: string) =>
      t.db.selectFrom('leaderboard_best_changes').select('board_id').where('uid', '=', uid).execute();
    for (const user of [crossing, short]) {
      const res = await t.request<{ data: { isPb: boolean } }>('POST', '/results', {
        auth: user.auth,
        body: { result: signed(boardResult({ language, wpm: 50, acc: 96 }), user.uid) },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.isPb).toBe(false);
    }
    // Queued with the result, in its transaction: both boards of the user who crossed, none of the other.
    expect(await queued(crossing.uid)).toHaveLength(2);
    expect(await queued(short.uid)).toHaveLength(0);

    await live();
    expect(await ranks(language)).toEqual([
      [a.uid, 1, 100],
      [crossing.uid, 2, 95],
      [b.uid, 3, 90],
      [c.uid, 4, 80],
    ]);
    expect(await rankOf(crossing, language, '60')).toMatchObject({ uid: crossing.uid, rank: 1, wpm: 70 });
    expect(await rankOf(short, language)).toBeNull();
  });

  it('a change committed during a rebuild (after it read the bests) is applied after the swap', async () => {
    const language = 'lithuanian';
    const [a, b] = await threeOnBoard(language);
    const late = await eligible(t);
    const snapshots = t.app.get(SnapshotRepository);
    const swap = snapshots.swap.bind(snapshots);
    const spy = jest.spyOn(snapshots, 'swap').mockImplementationOnce(async (ranges) => {
      await seedPb(t, late.uid, { language, wpm: 95 });
      await improve(b.uid, language, 105);
      return swap(ranges);
    });
    try {
      await rebuild(t);
    } finally {
      spy.mockRestore();
    }
    expect((await page(language)).entries.map((e) => e.uid)).not.toContain(late.uid);
    await live();
    expect((await page(language)).entries.map((e) => [e.uid, e.rank])).toEqual([
      [b.uid, 1],
      [a.uid, 2],
      [late.uid, 3],
      [expect.any(String), 4],
    ]);
  });

  it('live updates do not run while a rebuild holds the snapshot, and a rebuild waits for a live update', async () => {
    const snapshot = t.app.get(LeaderboardSnapshotService);
    const [rebuilt, applied] = await Promise.all([snapshot.rebuild(), snapshot.applyLiveChanges()]);
    // Whichever got the lock first, the rebuild always runs; the live update only if it came first.
    expect(rebuilt).not.toBeNull();
    expect(applied === null || typeof applied.pairs === 'number').toBe(true);
  });

  describe('property: a live-updated board ranks exactly as a rebuilt one', () => {
    const language = 'slovak';
    const users: Member[] = [];
    const repository = () => t.app.get(AllTimeRepository);
    const board = { language, mode: 'time', mode2: '15' };

    beforeAll(async () => {
      // Past a few rank marks (one every 128 positions of the shard's numbering).
      for (let i = 0; i < 400; i++) users.push(await eligible(t));
      await t.db
        .insertInto('personal_bests')
        .values(
          users.slice(0, 360).map((u, i) => ({
            uid: u.uid,
            mode: 'time',
            mode2: '15',
            language,
            difficulty: 'normal',
            punctuation: false,
            numbers: false,
            lazy_mode: false,
            wpm: 40 + (i % 90),
            acc: 90 + (i % 7),
            raw: 100,
            consistency: 80,
            timestamp: 1_700_000_000_000 + (i % 5),
          })),
        )
        .execute();
      await rebuild(t);
    });

    /** Every entry of the board in pages of 37 (pages start between marks), and each user's own rank. */
    const snapshotOf = async () => {
      const count = await repository().count(board);
      const paged: [string, number][] = [];
      for (let first = 0; first < count + 37; first += 37) {
        const { rows } = await repository().page(board, first, 37);
        paged.push(...rows.map((r): [string, number] => [r.uid, r.rank]));
      }
      const own = await repository().ofUsers(
        board,
        users.map((u) => u.uid),
      );
      return { count, paged, own: own.map((r) => [r.uid, r.rank, r.wpm, r.board_size]) };
    };

    const op = fc.record({
      user: fc.nat({ max: 399 }),
      kind: fc.constantFrom('pb', 'pb', 'pb', 'pb', 'delete', 'ban'),
      wpm: fc.integer({ min: 30, max: 140 }),
      acc: fc.constantFrom(90, 93.5, 96),
      timestamp: fc.constantFrom(1_700_000_000_000, 1_700_000_000_001),
    });

    it('for random sequences of personal bests, removals and bans', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
          for (const o of ops) {
            const uid = users[o.user]!.uid;
            if (o.kind === 'pb') {
              await sql`
                INSERT INTO personal_bests (uid, mode, mode2, language, difficulty, punctuation, numbers, lazy_mode,
                                            wpm, acc, raw, consistency, timestamp)
                VALUES (${uid}, 'time', '15', ${language}, 'normal', false, false, false,
                        ${o.wpm}, ${o.acc}, 100, 80, ${o.timestamp})
                ON CONFLICT DO NOTHING`.execute(t.db);
              await sql`
                UPDATE personal_bests SET wpm = ${o.wpm}, acc = ${o.acc}, timestamp = ${o.timestamp}
                WHERE uid = ${uid} AND language = ${language}`.execute(t.db);
            } else if (o.kind === 'delete') {
              await t.db
                .deleteFrom('personal_bests')
                .where('uid', '=', uid)
                .where('language', '=', language)
                .execute();
            } else {
              await setUser(t, uid, { banned: true });
              await t.app.get(LeaderboardHooks).purge(uid);
            }
          }
          await live();
          const liveView = await snapshotOf();
          await rebuild(t);
          const rebuilt = await snapshotOf();
          expect(liveView).toEqual(rebuilt);
          expect(rebuilt.paged.map(([, rank]) => rank)).toEqual(
            Array.from({ length: rebuilt.count }, (_, i) => i + 1),
          );
        }),
        { numRuns: 15 },
      );
    });
  });

  it('removing or re-applying the entries the rank marks were taken from keeps every rank', async () => {
    const language = 'ukrainian';
    const members = await Promise.all(Array.from({ length: 300 }, () => eligible(t)));
    for (const [i, m] of members.entries()) await seedPb(t, m.uid, { language, wpm: 30 + (i % 100) });
    await rebuild(t);
    const marked = await sql<{ uid: string }>`
      SELECT m.uid FROM leaderboard_rank_marks m JOIN leaderboard_boards b ON b.id = m.board_id
      WHERE b.language = ${language} AND b.mode = 'time' AND b.mode2 = '15' AND m.uid <> ''`.execute(t.db);
    expect(marked.rows.length).toBeGreaterThanOrEqual(2);
    const [removed, requeued] = marked.rows.map((r) => r.uid);
    await setUser(t, removed!, { lb_opt_out: true });
    await t.app.get(LeaderboardHooks).purge(removed!);
    await sql`INSERT INTO leaderboard_best_changes (uid, board_id)
              SELECT uid, board_id FROM leaderboard_bests WHERE uid = ${requeued!}`.execute(t.db);
    await live();
    const all = async () => {
      const entries: [string, number][] = [];
      for (const p of [0, 1]) {
        const data = await page(language, '15', { page: p });
        entries.push(...data.entries.map((e): [string, number] => [e.uid, e.rank]));
      }
      return entries;
    };
    const liveView = await all();
    expect(liveView.map(([, rank]) => rank)).toEqual(Array.from({ length: 299 }, (_, i) => i + 1));
    await rebuild(t);
    expect(await all()).toEqual(liveView);
  });

  it('a user with no account row never enters', async () => {
    const language = 'slovenian';
    const ghost = await createUser(t.db, { timeTyping: 10_000 });
    await seedPb(t, ghost.uid, { language });
    await t.db.deleteFrom('users').where('uid', '=', ghost.uid).execute();
    await live();
    expect((await page(language)).count).toBe(0);
  });
});
