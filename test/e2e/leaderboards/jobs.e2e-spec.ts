import { PassThrough } from 'node:stream';
import { SchedulerRegistry } from '@nestjs/schedule';
import { runCli } from '../../../src/cli/run-cli';
import { withAdvisoryLock } from '../../../src/infra/database/advisory-lock';
import {
  JOBS_INTERVAL_NAME,
  LeaderboardJobsService,
} from '../../../src/modules/leaderboards/leaderboard-jobs.service';
import { createTestApp, type TestApp } from '../../support/test-app';
import { redisEnvOf } from '../../support/stores';
import { afterResult, DAY, eligible, savedEvent, seedPb, type Member } from './support';

// Tuesday 2026-11-24 00:00 UTC; its ISO week started Monday 2026-11-23.
const TUESDAY = Date.UTC(2026, 10, 24);
const THURSDAY = Date.UTC(2026, 10, 26);
const NEXT_MONDAY = Date.UTC(2026, 10, 30);

interface Mail {
  uid: string;
  subject: string;
  body: string;
  rewards: unknown;
}

describe('leaderboard jobs', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    // Two replicas on one database and one Redis, as in production.
    a = await createTestApp({ now: TUESDAY + 12 * 3600_000 });
    b = await createTestApp({ stores: a.stores, now: TUESDAY + 12 * 3600_000 });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  const jobs = (t: TestApp) => t.app.get(LeaderboardJobsService);
  const setBoth = (ms: number) => {
    a.clock.set(ms);
    b.clock.set(ms);
  };
  const mails = async (): Promise<Mail[]> =>
    (await a.db
      .selectFrom('inbox_mail')
      .select(['uid', 'subject', 'body', 'rewards'])
      .orderBy('body')
      .execute()) as Mail[];
  const runs = (job: string) =>
    a.db.selectFrom('leaderboard_job_runs').select(['period', 'details']).where('job', '=', job).execute();

  describe('all-time rebuild', () => {
    it('two replicas running the due jobs at the same time rebuild once per period', async () => {
      const u = await eligible(a);
      await seedPb(a, u.uid, { language: 'german', wpm: 77 });
      setBoth(TUESDAY + 12 * 3600_000);
      const [ra, rb] = await Promise.all([jobs(a).runDueJobs(), jobs(b).runDueJobs()]);
      expect([ra.rebuilt, rb.rebuilt].sort()).toEqual([false, true]);
      expect(await runs('rebuild')).toHaveLength(1);
      const board = await a.request<{ data: { entries: { uid: string }[] } }>('GET', '/leaderboards', {
        query: { language: 'german', mode: 'time', mode2: '15' },
      });
      expect(board.body.data.entries.map((e) => e.uid)).toEqual([u.uid]);

      // Same period: nothing to do on either replica.
      const again = await Promise.all([jobs(a).runDueJobs(), jobs(b).runDueJobs()]);
      expect(again.map((r) => r.rebuilt)).toEqual([false, false]);
      // The next period (leaderboards.rebuildIntervalSeconds, 300 by default) rebuilds once more.
      setBoth(TUESDAY + 12 * 3600_000 + 300_000);
      const next = await Promise.all([jobs(a).runDueJobs(), jobs(b).runDueJobs()]);
      expect(next.map((r) => r.rebuilt).sort()).toEqual([false, true]);
      expect(await runs('rebuild')).toHaveLength(2);
    });

    it('follows leaderboards.rebuildIntervalSeconds', async () => {
      await a.configure({ leaderboards: { rebuildIntervalSeconds: 60 } });
      try {
        setBoth(TUESDAY + 13 * 3600_000);
        expect((await jobs(a).rebuildIfDue()) || (await jobs(b).rebuildIfDue())).toBe(true);
        setBoth(TUESDAY + 13 * 3600_000 + 59_000);
        expect(await jobs(b).rebuildIfDue()).toBe(false);
        setBoth(TUESDAY + 13 * 3600_000 + 60_000);
        expect(await jobs(b).rebuildIfDue()).toBe(true);
      } finally {
        await a.configure({ leaderboards: { rebuildIntervalSeconds: 300 } });
      }
    });
  });

  describe('daily rollover', () => {
    let first: Member;
    let second: Member;
    let third: Member;
    // Wednesday's boards, closed on Thursday (earlier tests already closed the days before).
    const yesterdayNoon = THURSDAY - 12 * 3600_000;

    beforeAll(async () => {
      await a.configure({
        dailyLeaderboards: {
          scheduleRewardsModeRules: [{ language: 'english', mode: 'time', mode2: '60' }],
          xpRewardBrackets: [{ minRank: 1, maxRank: 2, minReward: 100, maxReward: 500 }],
          topResultsToAnnounce: 3,
        },
      });
      [first, second, third] = await Promise.all([eligible(a), eligible(a), eligible(a)]);
      const at = (u: Member, wpm: number, mode2 = '60') =>
        afterResult(
          a,
          savedEvent(a, { uid: u.uid, name: u.name, timestamp: yesterdayNoon, result: { mode2, wpm } }),
        );
      await at(first, 120.4);
      await at(second, 110);
      await at(third, 100);
      // time 15 boards pay nothing (not in scheduleRewardsModeRules).
      await at(third, 150, '15');
    });

    it('waits for a minute past midnight, then two replicas send one set of reward mails', async () => {
      setBoth(THURSDAY + 30_000);
      const early = await Promise.all([jobs(a).runDueJobs(), jobs(b).runDueJobs()]);
      expect(early.map((r) => r.dailyClosed)).toEqual([false, false]);
      expect(await mails()).toEqual([]);

      setBoth(THURSDAY + 61_000);
      const due = await Promise.all([jobs(a).runDueJobs(), jobs(b).runDueJobs()]);
      expect(due.map((r) => r.dailyClosed).sort()).toEqual([false, true]);
      expect(await mails()).toEqual([
        {
          uid: first.uid,
          subject: 'Daily leaderboard placement',
          body: `Congratulations ${first.name} on placing 1st with 120 wpm in the english time 60 daily leaderboard!`,
          rewards: [{ type: 'xp', item: 500 }],
        },
        {
          uid: second.uid,
          subject: 'Daily leaderboard placement',
          body: `Congratulations ${second.name} on placing 2nd with 110 wpm in the english time 60 daily leaderboard!`,
          rewards: [{ type: 'xp', item: 100 }],
        },
      ]);
      const run = (await runs('daily-rollover')).find((r) => r.period === '2026-11-25');
      expect(run).toMatchObject({
        period: '2026-11-25',
        details: {
          boards: [
            {
              language: 'english',
              mode: 'time',
              mode2: '60',
              top: [
                { uid: first.uid, rank: 1, wpm: 120.4 },
                { uid: second.uid, rank: 2, wpm: 110 },
                { uid: third.uid, rank: 3, wpm: 100 },
              ],
            },
          ],
        },
      });

      // Retries and later ticks that day do nothing.
      setBoth(THURSDAY + 5 * 3600_000);
      expect((await jobs(a).runDueJobs()).dailyClosed).toBe(false);
      expect(await mails()).toHaveLength(2);
    });
  });

  describe('weekly rollover', () => {
    it('pays last week’s XP board once, after Monday 00:01 UTC', async () => {
      await a.db.deleteFrom('inbox_mail').execute();
      await a.configure({
        leaderboards: {
          weeklyXp: { xpRewardBrackets: [{ minRank: 1, maxRank: 1, minReward: 1, maxReward: 2000 }] },
        },
      });
      const [top, other] = await Promise.all([eligible(a), eligible(a)]);
      const lastWeek = NEXT_MONDAY - 2 * DAY;
      await afterResult(
        a,
        savedEvent(a, {
          uid: top.uid,
          name: top.name,
          xp: 900,
          timestamp: lastWeek,
          result: { testDuration: 5400 },
        }),
      );
      await afterResult(a, savedEvent(a, { uid: other.uid, xp: 10, timestamp: lastWeek }));

      setBoth(NEXT_MONDAY + 61_000);
      const due = await Promise.all([jobs(a).runDueJobs(), jobs(b).runDueJobs()]);
      expect(due.map((r) => r.weeklyClosed).sort()).toEqual([false, true]);
      expect(await mails()).toEqual([
        {
          uid: top.uid,
          subject: 'Weekly XP Leaderboard placement',
          body: `Congratulations ${top.name} on placing 1st with 900 xp! Last week, you typed for a total of 1.5 hours! Keep up the good work :)`,
          rewards: [{ type: 'xp', item: 2000 }],
        },
      ]);
      // The week before was closed (without rewards) by the earlier tests' runs.
      expect((await runs('weekly-rollover')).map((r) => r.period).sort()).toEqual([
        '2026-11-16',
        '2026-11-23',
      ]);
      expect((await jobs(b).runDueJobs()).weeklyClosed).toBe(false);
      expect(await mails()).toHaveLength(1);
    });
  });

  describe('operator CLI: leaderboards rebuild', () => {
    const cli = async () => {
      const out: string[] = [];
      const err: string[] = [];
      const progress = new PassThrough();
      let drawn = '';
      progress.on('data', (chunk: Buffer) => (drawn += chunk.toString()));
      const code = await runCli(
        ['leaderboards', 'rebuild'],
        { out: (l) => out.push(l), err: (l) => err.push(l), progress },
        { DATABASE_URL: a.stores.databaseUrl, ...redisEnvOf(a.stores), LOG_LEVEL: 'silent' },
      );
      return { code, out, err, drawn };
    };

    it('rebuilds with a progress bar and prints a summary line', async () => {
      const u = await eligible(a);
      await seedPb(a, u.uid, { language: 'estonian', wpm: 55 });
      const { code, out, drawn } = await cli();
      expect(code).toBe(0);
      expect(out).toEqual([
        expect.stringMatching(/^rebuilt \d+ boards with \d+ entries in \d+\.\d s$/) as string,
      ]);
      expect(drawn).toContain('rebuilding all-time leaderboards');
      expect(drawn).toContain('6/6 swapped');
      const board = await a.request<{ data: { count: number } }>('GET', '/leaderboards', {
        query: { language: 'estonian', mode: 'time', mode2: '15' },
      });
      expect(board.body.data.count).toBe(1);
    });

    it('refuses while another rebuild holds the lock', async () => {
      const result = await withAdvisoryLock(a.db, 'leaderboards:rebuild', () => cli());
      expect(result.ran && result.value).toMatchObject({
        code: 1,
        // The target line comes first (the CLI prints where it works before it does anything).
        err: [
          expect.stringMatching(/^target: postgres:\/\//),
          'another rebuild is running; try again when it has finished',
        ],
      });
    });
  });

  describe('scheduling', () => {
    it('registers the ticker only where JOBS_ENABLED, and its first tick rebuilds an empty snapshot', async () => {
      expect(a.app.get(SchedulerRegistry).doesExist('interval', JOBS_INTERVAL_NAME)).toBe(false);
      const worker = await createTestApp({ env: { jobsEnabled: true }, now: TUESDAY + 20 * 3600_000 });
      try {
        expect(worker.app.get(SchedulerRegistry).doesExist('interval', JOBS_INTERVAL_NAME)).toBe(true);
        const u = await eligible(worker);
        await seedPb(worker, u.uid, { wpm: 42 });
        // The first tick runs right after start; wait for its rebuild record.
        for (let i = 0; i < 100; i++) {
          const rows = await worker.db.selectFrom('leaderboard_job_runs').select('job').execute();
          if (rows.length > 0) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        expect(
          (await worker.db.selectFrom('leaderboard_job_runs').select('job').execute()).map((r) => r.job),
        ).toContain('rebuild');
      } finally {
        await worker.close();
      }
      expect(worker.app.get(SchedulerRegistry).doesExist('interval', JOBS_INTERVAL_NAME)).toBe(false);
    });
  });
});
