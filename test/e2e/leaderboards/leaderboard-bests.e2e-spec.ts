import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../../support/test-app';
import { submitOk } from '../results/result-factory';
import { eligible, rebuild, seedPb } from './support';

/**
 * `leaderboard_bests` (the rebuild's source) follows `personal_bests` through a trigger, in the same transaction as
 * each write; boards created later get their personal bests copied by the rebuild.
 */
describe('leaderboard bests (the rebuild source)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
    // Creates every board (the trigger maps only to boards that exist).
    await rebuild(t);
  });
  afterAll(() => t.close());

  const bestsOf = (uid: string) =>
    t.db
      .selectFrom('leaderboard_bests as lb')
      .innerJoin('leaderboard_boards as b', 'b.id', 'lb.board_id')
      .select([
        'b.language',
        'b.mode',
        'b.mode2',
        'lb.wpm',
        'lb.acc',
        'lb.raw',
        'lb.consistency',
        'lb.timestamp',
      ])
      .where('lb.uid', '=', uid)
      .orderBy('b.mode')
      .orderBy('b.mode2')
      .execute();

  it('mirrors a qualifying personal best, its improvements and its removal', async () => {
    const u = await eligible(t);
    await seedPb(t, u.uid, {
      language: 'french',
      mode2: '60',
      wpm: 80,
      acc: 90,
      raw: 85,
      consistency: 70,
      timestamp: 5,
    });
    expect(await bestsOf(u.uid)).toEqual([
      {
        language: 'french',
        mode: 'time',
        mode2: '60',
        wpm: 80,
        acc: 90,
        raw: 85,
        consistency: 70,
        timestamp: 5,
      },
    ]);
    await t.db
      .updateTable('personal_bests')
      .set({ wpm: 91.5, acc: 97, raw: 93, consistency: 75, timestamp: 9 })
      .where('uid', '=', u.uid)
      .execute();
    expect(await bestsOf(u.uid)).toEqual([
      {
        language: 'french',
        mode: 'time',
        mode2: '60',
        wpm: 91.5,
        acc: 97,
        raw: 93,
        consistency: 75,
        timestamp: 9,
      },
    ]);
    await t.db.deleteFrom('personal_bests').where('uid', '=', u.uid).execute();
    expect(await bestsOf(u.uid)).toEqual([]);
  });

  it('leaves out personal bests that cannot be on a board', async () => {
    const u = await eligible(t);
    await seedPb(t, u.uid, { punctuation: true });
    await seedPb(t, u.uid, { numbers: true });
    await seedPb(t, u.uid, { lazyMode: true });
    await seedPb(t, u.uid, { difficulty: 'expert' });
    await seedPb(t, u.uid, { mode2: '30' });
    await seedPb(t, u.uid, { mode: 'words', mode2: '10' });
    expect((await bestsOf(u.uid)).map((r) => `${r.mode} ${r.mode2}`)).toEqual(['words 10']);
  });

  it('drops the row when a hand-written update moves a personal best off the boards', async () => {
    const u = await eligible(t);
    await seedPb(t, u.uid, { mode2: '15' });
    await t.db.updateTable('personal_bests').set({ punctuation: true }).where('uid', '=', u.uid).execute();
    expect(await bestsOf(u.uid)).toEqual([]);
    await t.db
      .updateTable('personal_bests')
      .set({ punctuation: false, mode2: '60' })
      .where('uid', '=', u.uid)
      .execute();
    expect((await bestsOf(u.uid)).map((r) => r.mode2)).toEqual(['60']);
  });

  it('follows a result submitted through the API, and an account deletion', async () => {
    const u = await eligible(t);
    const saved = await submitOk(t, u.uid, { mode: 'time', mode2: '15', testDuration: 15, wpm: 85, acc: 96 });
    expect(saved.isPb).toBe(true);
    expect(await bestsOf(u.uid)).toEqual([
      expect.objectContaining({ language: 'english', mode: 'time', mode2: '15', wpm: 85, acc: 96 }),
    ]);
    await seedPb(t, u.uid, { language: 'german', mode: 'words', mode2: '25', wpm: 60 });
    expect(await bestsOf(u.uid)).toHaveLength(2);
    await t.db.deleteFrom('users').where('uid', '=', u.uid).execute();
    expect(await bestsOf(u.uid)).toEqual([]);
  });

  it('a board created after its personal bests gets them at the next rebuild', async () => {
    const u = await eligible(t);
    // As if "swahili_1k" had just been added to the language list: no board rows yet.
    await t.db.deleteFrom('leaderboard_boards').where('language', '=', 'swahili_1k').execute();
    await seedPb(t, u.uid, { language: 'swahili_1k', mode2: '15', wpm: 77 });
    expect(await bestsOf(u.uid)).toEqual([]);
    await rebuild(t);
    expect((await bestsOf(u.uid)).map((r) => [r.language, r.mode2, r.wpm])).toEqual([
      ['swahili_1k', '15', 77],
    ]);
    const page = await t.request<{ data: { entries: { uid: string; rank: number }[] } }>(
      'GET',
      '/leaderboards',
      {
        query: { language: 'swahili_1k', mode: 'time', mode2: '15' },
      },
    );
    expect(page.body.data.entries.map((e) => [e.uid, e.rank])).toEqual([[u.uid, 1]]);
  });

  it('analyses the mirror after copying the bests of new boards, and only then', async () => {
    const lastAnalyze = async () => {
      const { rows } = await sql<{ at: Date | null }>`
        SELECT last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'leaderboard_bests'`.execute(t.db);
      return rows[0]?.at?.getTime() ?? null;
    };
    const u = await eligible(t);
    await t.db.deleteFrom('leaderboard_boards').where('language', '=', 'klingon').execute();
    await seedPb(t, u.uid, { language: 'klingon', mode2: '15', wpm: 66 });
    const before = await lastAnalyze();
    await rebuild(t);
    const afterCopy = await lastAnalyze();
    expect(afterCopy).not.toBeNull();
    expect(afterCopy).toBeGreaterThan(before ?? 0);
    // No board added: nothing copied, nothing to analyse.
    await rebuild(t);
    expect(await lastAnalyze()).toBe(afterCopy);
  });

  it('the rebuild reads only the mirror: a personal best missing from it is not ranked', async () => {
    const u = await eligible(t);
    await seedPb(t, u.uid, { language: 'dutch', mode2: '60', wpm: 88 });
    await sql`DELETE FROM leaderboard_bests WHERE uid = ${u.uid}`.execute(t.db);
    await rebuild(t);
    const page = await t.request<{ data: { entries: unknown[] } }>('GET', '/leaderboards', {
      query: { language: 'dutch', mode: 'time', mode2: '60' },
    });
    expect(page.body.data.entries).toEqual([]);
  });
});
