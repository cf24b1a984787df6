import { BoardCatchUpService } from '../../../src/modules/leaderboards/board-catch-up.service';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { boardResult, signed, type ResultBody, type SubmitData } from '../results/result-factory';

const NOON = Date.UTC(2026, 10, 18, 12);

interface Entry {
  uid: string;
  rank: number;
  wpm?: number;
  acc?: number;
  totalXp?: number;
  timeTypedSeconds?: number;
}

// The catch-up must rebuild from PostgreSQL exactly the boards the post-commit hooks built, and repeating it must
// change nothing.
describe('board catch-up from PostgreSQL', () => {
  let t: TestApp;
  let catchUp: BoardCatchUpService;

  beforeAll(async () => {
    t = await createTestApp({
      now: NOON,
      env: { rateLimit: { globalPerMinute: 100_000, overrides: { resultsAdd: { max: 10_000 } } } },
      configuration: {
        users: { xp: { enabled: true, gainMultiplier: 1, maxDailyBonus: 100, minDailyBonus: 5 } },
      },
    });
    catchUp = t.app.get(BoardCatchUpService);
  });
  afterAll(() => t.close());

  async function submit(uid: string, overrides: ResultBody): Promise<SubmitData> {
    const res = await t.request<{ data: SubmitData }>('POST', '/results', {
      auth: await t.bearer(uid),
      body: { result: signed(boardResult(overrides), uid) },
    });
    if (res.status !== 200) throw new Error(`${res.status} ${res.text}`);
    return res.body.data;
  }

  async function boards() {
    const daily = await t.request<{ data: { entries: Entry[] } }>('GET', '/leaderboards/daily', {
      query: { language: 'english', mode: 'time', mode2: '15' },
    });
    const weekly = await t.request<{ data: { entries: Entry[] } }>('GET', '/leaderboards/xp/weekly');
    return {
      daily: daily.body.data.entries.map(({ uid, rank, wpm, acc }) => ({ uid, rank, wpm, acc })),
      weekly: weekly.body.data.entries.map(({ uid, rank, totalXp, timeTypedSeconds }) => ({
        uid,
        rank,
        totalXp,
        timeTypedSeconds,
      })),
    };
  }

  it('rebuilds the hooks’ boards exactly, idempotently, and leaves out what the hooks leave out', async () => {
    const eligible = await Promise.all([1, 2, 3].map(() => createUser(t.db, { timeTyping: 10_000 })));
    const newcomer = await createUser(t.db, { timeTyping: 0 });
    for (const [round, wpms] of [
      [80, 95, 70],
      [90, 85, 75],
      [60, 99, 72],
    ].entries()) {
      await Promise.all(
        eligible.map(({ uid }, i) => submit(uid, { wpm: wpms[i], rawWpm: 100, acc: 95 + round })),
      );
      t.clock.advance(20_000);
    }
    // A stop-on-letter test below 100% accuracy never enters a daily board (it still earns XP).
    await submit(eligible[0]!.uid, { wpm: 125, rawWpm: 126, acc: 99, stopOnLetter: true });
    await submit(newcomer.uid, { wpm: 128, rawWpm: 129, acc: 99 });
    t.clock.advance(20_000);

    const live = await boards();
    expect(live.daily.map((e) => e.wpm)).toEqual([99, 90, 75]);
    expect(live.weekly).toHaveLength(3);

    await t.redis.flushdb();
    expect((await boards()).daily).toEqual([]);
    const report = await catchUp.catchUp(NOON);
    expect(report).toEqual({ dailyEntries: 3, weeklyEntries: 3, deferred: 0, removedUsers: 0 });
    expect(await boards()).toEqual(live);

    // Again: nothing counted twice.
    await catchUp.catchUp(NOON);
    expect(await boards()).toEqual(live);

    // A live result after the catch-up, then another pass: the total counts it once.
    const extra = await submit(eligible[1]!.uid, { wpm: 50, rawWpm: 51, acc: 95 });
    await catchUp.catchUp(NOON);
    const after = await boards();
    const before = live.weekly.find((e) => e.uid === eligible[1]!.uid)!;
    expect(after.weekly.find((e) => e.uid === eligible[1]!.uid)).toEqual({
      ...before,
      totalXp: (before.totalXp as number) + extra.xp,
      timeTypedSeconds: (before.timeTypedSeconds as number) + 15,
      rank: expect.any(Number),
    });
    expect(catchUp.pending).toBe(false);
  }, 30_000);
});
