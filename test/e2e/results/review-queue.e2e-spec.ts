import { Writable } from 'node:stream';
import { runCli } from '../../../src/cli/run-cli';
import { BoardCatchUpService } from '../../../src/modules/leaderboards/board-catch-up.service';
import { LeaderboardSnapshotService } from '../../../src/modules/leaderboards/leaderboard-snapshot.service';
import { createUser } from '../../support/factories';
import { freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';
import { eligible, type Member } from '../leaderboards/support';
import { clientResult, signed, submit } from './result-factory';

const NOON = Date.UTC(2026, 10, 26, 12, 0);
const MINUTE = 60_000;
const METRICS_TOKEN = 'review-queue-metrics-token-0123456789';

/** Collects the JSON lines the app writes. */
class LineSink extends Writable {
  lines: (Record<string, unknown> & { msg?: string })[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n'))
      if (line.trim()) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  }
}

interface Entry {
  uid: string;
  wpm: number;
  rank: number;
  totalXp?: number;
}

/**
 * Issue 23: results above their mode's ceiling are saved (personal best, XP, stats) but held off every board (all-time,
 * daily, weekly XP) until a moderator decides; approved they enter, rejected they never do.
 */
describe('the result review queue', () => {
  let t: TestApp;
  let admin: { uid: string; auth: () => Promise<string> };
  const logs = new LineSink();

  beforeAll(async () => {
    t = await createTestApp({
      now: NOON,
      env: {
        rateLimit: {
          globalPerMinute: 100_000,
          overrides: { adminLimit: { max: 10_000 }, leaderboardsGet: { max: 100_000 } },
        },
        metrics: { host: '127.0.0.1', token: METRICS_TOKEN },
        logLevel: 'info',
      },
      logDestination: logs,
      configuration: { users: { xp: { enabled: true, gainMultiplier: 1 } } },
    });
    const row = await createUser(t.db, { permissions: ['admin'] });
    admin = { uid: row.uid, auth: () => t.bearer(row.uid) };
  });
  afterAll(() => t.close());

  /** A timed 15-second result (the daily board's) at `wpm`; above 250 it is held. */
  const post = async (member: Member, wpm: number) => {
    t.clock.advance(MINUTE);
    const result = clientResult({
      mode2: '15',
      testDuration: 15,
      wpm,
      rawWpm: wpm + 1,
      acc: 97,
      afkDuration: 0,
      incompleteTestSeconds: 0,
      incompleteTests: [],
    });
    const res = await submit(t, member.uid, signed(result, member.uid), await t.bearer(member.uid));
    expect(res.status).toBe(200);
    return res.body.data as unknown as Record<string, unknown> & {
      insertedId: string;
      xp: number;
      isPb: boolean;
    };
  };
  const board = async () =>
    (
      await t.request<{ data: { entries: Entry[] } }>('GET', '/leaderboards', {
        query: { language: 'english', mode: 'time', mode2: '15', pageSize: 200 },
        ip: freshIp(),
      })
    ).body.data.entries;
  const daily = async () =>
    (
      await t.request<{ data: { entries: Entry[] } }>('GET', '/leaderboards/daily', {
        query: { language: 'english', mode: 'time', mode2: '15', pageSize: 200 },
        ip: freshIp(),
      })
    ).body.data.entries;
  const weekly = async () =>
    (await t.request<{ data: { entries: Entry[] } }>('GET', '/leaderboards/xp/weekly', { ip: freshIp() }))
      .body.data.entries;
  const entryOf = (entries: Entry[], member: Member) => entries.find((e) => e.uid === member.uid);
  const liveUpdate = () => t.app.get(LeaderboardSnapshotService).applyLiveChanges();
  const heldList = async () =>
    t.request<{ data: { count: number; results: Record<string, unknown>[] } }>('GET', '/admin/result/held', {
      auth: await admin.auth(),
    });
  const decide = async (verb: 'accept' | 'reject', results: { resultId: string; reason?: string }[]) =>
    t.request('POST', `/admin/result/${verb}`, { auth: await admin.auth(), body: { results } });
  const review = (resultId: string) =>
    t.db.selectFrom('result_reviews').selectAll().where('result_id', '=', resultId).executeTakeFirstOrThrow();

  it('holds a result above the ceiling: saved with its personal best and XP, same response, on no board', async () => {
    const me = await eligible(t);
    const first = await post(me, 100);
    expect(first.dailyLeaderboardRank).toBe(1);
    await t.app.get(LeaderboardSnapshotService).rebuild();

    const held = await post(me, 270);
    // The response has the fields of any result; only the board ranks, which it did not get, are absent.
    expect(Object.keys(held).sort()).toEqual(
      ['dailyXpBonus', 'insertedId', 'isPb', 'streak', 'tagPbs', 'xp', 'xpBreakdown'].sort(),
    );
    expect(held.isPb).toBe(true);
    expect(held.xp).toBeGreaterThan(0);
    const pbs = await t.request<{ data: { time: Record<string, { wpm: number }[]> } }>(
      'GET',
      '/users/personalBests',
      { auth: await t.bearer(me.uid) },
    );
    expect(pbs.body.data.time['15']?.[0]?.wpm).toBe(270);

    await liveUpdate();
    expect(entryOf(await board(), me)?.wpm).toBe(100);
    expect(entryOf(await daily(), me)?.wpm).toBe(100);
    expect(entryOf(await weekly(), me)?.totalXp).toBe(first.xp);
    // A rebuild reads the boards' bests: the held best is not among them.
    await t.app.get(LeaderboardSnapshotService).rebuild();
    expect(entryOf(await board(), me)?.wpm).toBe(100);

    const list = await heldList();
    expect(list.status).toBe(200);
    expect(list.body.data.count).toBe(1);
    expect(list.body.data.results[0]).toMatchObject({
      resultId: held.insertedId,
      uid: me.uid,
      name: me.name,
      reasons: [{ check: 'ceiling', figures: { mode: 'time', wpm: 270, ceiling: 250 } }],
      keyTiming: {
        keySpacing: { count: expect.any(Number) as number, cv: expect.any(Number) as number },
        testDurationMs: 15_000,
      },
      result: { mode: 'time', mode2: '15', wpm: 270, xp: held.xp },
    });
    const metrics = (await t.request('GET', '/metrics', { auth: `Bearer ${METRICS_TOKEN}` })).text;
    expect(metrics).toMatch(/result_review_queue_length 1\b/);
    expect(metrics).toMatch(/result_submissions_total\{outcome="held:ceiling"\} 1\b/);

    // Approved: on the all-time board at the next live update, on today's board and this week's XP board now.
    const approved = await decide('accept', [{ resultId: held.insertedId }]);
    expect(approved.status).toBe(200);
    expect(approved.body.message).toBe('Held results approved');
    expect(entryOf(await daily(), me)?.wpm).toBe(270);
    expect(entryOf(await weekly(), me)?.totalXp).toBe(first.xp + held.xp);
    await liveUpdate();
    expect(entryOf(await board(), me)?.wpm).toBe(270);
    expect(await review(held.insertedId)).toMatchObject({ status: 'approved', decided_by: admin.uid });
    expect((await heldList()).body.data.count).toBe(0);
    // The hold and the decision are logged, the decision with the moderator.
    expect(logs.lines.find((l) => l.resultId === held.insertedId && l.reasons !== undefined)).toMatchObject({
      msg: 'result held for review: off the boards until a moderator decides',
      uid: me.uid,
      reasons: [{ check: 'ceiling', figures: { wpm: 270, ceiling: 250 } }],
    });
    expect(logs.lines.find((l) => l.msg === 'held result approved')).toMatchObject({
      moderatorUid: admin.uid,
      resultId: held.insertedId,
      uid: me.uid,
      decision: 'approved',
    });

    // Decided once: a second decision names it as not held.
    expect(await decide('reject', [{ resultId: held.insertedId }])).toMatchObject({
      status: 404,
      body: { message: `Held results not found for some IDs ${held.insertedId}`, data: null },
    });
  });

  it('rejected, the result stays saved and marked and never reaches a board; the board shows the best other result', async () => {
    const me = await eligible(t);
    await post(me, 100);
    const held = await post(me, 280);
    const rejected = await decide('reject', [{ resultId: held.insertedId, reason: 'burst of 400 wpm' }]);
    expect(rejected).toMatchObject({ status: 200, body: { message: 'Held results rejected' } });
    expect(await review(held.insertedId)).toMatchObject({
      status: 'rejected',
      decided_by: admin.uid,
      decision_reason: 'burst of 400 wpm',
    });
    const kept = await t.request('GET', `/results/id/${held.insertedId}`, { auth: await t.bearer(me.uid) });
    expect(kept.status).toBe(200);

    // A later result below the rejected best (so not a personal best) is the user's entry on every board.
    const later = await post(me, 120);
    expect(later.isPb).toBe(false);
    expect(later.dailyLeaderboardRank).toEqual(expect.any(Number));
    await liveUpdate();
    expect(entryOf(await board(), me)?.wpm).toBe(120);
    await t.app.get(LeaderboardSnapshotService).rebuild();
    expect(entryOf(await board(), me)?.wpm).toBe(120);

    // Rebuilt from PostgreSQL after a Redis loss, the daily board still leaves the rejected result out.
    await t.redis.flushdb();
    await t.app.get(BoardCatchUpService).catchUp(NOON);
    expect(entryOf(await daily(), me)?.wpm).toBe(120);
  });

  it('approving a held result that is no longer the best puts it on the board where it is the best there', async () => {
    const me = await eligible(t);
    await post(me, 100);
    const a = await post(me, 260);
    const b = await post(me, 275);
    await decide('accept', [{ resultId: a.insertedId }]);
    await liveUpdate();
    expect(entryOf(await board(), me)?.wpm).toBe(260);
    await decide('accept', [{ resultId: b.insertedId }]);
    await liveUpdate();
    expect(entryOf(await board(), me)?.wpm).toBe(275);
  });

  it('decides all the results named or none (404 naming the unknown ones)', async () => {
    const me = await eligible(t);
    const held = await post(me, 265);
    const unknown = 'a'.repeat(24);
    const res = await decide('accept', [{ resultId: held.insertedId }, { resultId: unknown }]);
    expect(res).toMatchObject({
      status: 404,
      body: { message: `Held results not found for some IDs ${unknown}`, data: null },
    });
    expect(await review(held.insertedId)).toMatchObject({ status: 'held', decided_by: null });
    const invalid = await decide('accept', []);
    expect(invalid.status).toBe(422);
    await decide('reject', [{ resultId: held.insertedId }]);
  });

  it('an account reset takes its results off the queue', async () => {
    const me = await eligible(t);
    const held = await post(me, 265);
    const reset = await t.request('PATCH', '/users/reset', { auth: await t.bearer(me.uid) });
    expect(reset.status).toBe(200);
    expect(
      await t.db
        .selectFrom('result_reviews')
        .select('status')
        .where('result_id', '=', held.insertedId)
        .execute(),
    ).toEqual([]);
  });

  it('the same decisions from the CLI: results held, accept, reject (logged with the moderator)', async () => {
    const me = await eligible(t);
    const held = await post(me, 290);
    const other = await post(me, 285);
    const cli = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const env = { DATABASE_URL: t.stores.databaseUrl, REDIS_URL: t.stores.redisUrl, LOG_LEVEL: 'silent' };
      const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
      return { code, out: out.join('\n'), err: err.join('\n') };
    };
    const listed = await cli('results', 'held', '--limit', '200');
    expect(listed.code).toBe(0);
    expect(listed.out).toContain(held.insertedId);
    expect(listed.out).toContain('ceiling: ceiling 250, mode time, wpm 290');
    expect(listed.out).toMatch(/spacing \d+ keys, mean [\d.]+ ms, cv [\d.]+/);

    expect(await cli('results', 'accept', held.insertedId)).toMatchObject({ code: 2 }); // --moderator is required
    expect(await cli('results', 'accept', held.insertedId, '--moderator', admin.uid)).toMatchObject({
      code: 0,
      out: expect.stringContaining('approved 1 held result') as string,
    });
    expect(await review(held.insertedId)).toMatchObject({ status: 'approved', decided_by: admin.uid });
    const rejected = await cli(
      'results',
      'reject',
      other.insertedId,
      '--moderator',
      admin.uid,
      '--reason',
      'bot',
    );
    expect(rejected.code).toBe(0);
    expect(await review(other.insertedId)).toMatchObject({ status: 'rejected', decision_reason: 'bot' });
    expect((await cli('results', 'reject', other.insertedId, '--moderator', admin.uid)).code).toBe(1);
    await liveUpdate();
    expect(entryOf(await board(), me)?.wpm).toBe(290);
  });
});
