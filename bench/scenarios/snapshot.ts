import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app.module';
import type { AppEnv } from '../../src/config/env';
import { ServerConfigurationService } from '../../src/common/server-configuration/server-configuration.service';
import { LeaderboardSnapshotService } from '../../src/modules/leaderboards/leaderboard-snapshot.service';
import { notAvailable, type BenchContext, type ScenarioRow } from './context';

const SMALL = 100_000;
const LARGE = 1_000_000;

/** The typing-time threshold that leaves about `users` eligible users (typing time is log-normal in the dataset). */
async function thresholdFor(
  context: BenchContext,
  users: number,
  floor: number,
): Promise<{ threshold: number; eligible: number }> {
  const { rows } = await context.pool.query<{ t: number }>(
    `SELECT time_typing AS t FROM users WHERE NOT banned AND NOT lb_opt_out
     ORDER BY time_typing DESC OFFSET $1 LIMIT 1`,
    [users],
  );
  const threshold = Math.max(floor, Math.floor(rows[0]?.t ?? floor));
  const counted = await context.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM users WHERE NOT banned AND NOT lb_opt_out AND time_typing > $1',
    [threshold],
  );
  return { threshold, eligible: Number(counted.rows[0]?.n ?? 0) };
}

/** One rebuild on the given application context, timed per step. */
async function timedRebuild(app: INestApplicationContext): Promise<{ seconds: number; note: string }> {
  const steps: string[] = [];
  let last = process.hrtime.bigint();
  const startedAt = last;
  const summary = await app.get(LeaderboardSnapshotService).rebuild((step) => {
    const now = process.hrtime.bigint();
    steps.push(`${step} ${(Number(now - last) / 1e9).toFixed(2)} s`);
    last = now;
  });
  const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
  if (!summary) throw new Error('another process was rebuilding the snapshot at the same time');
  return { seconds, note: `${summary.entries} entries on ${summary.boards} boards (${steps.join(', ')})` };
}

/**
 * Scenario 6: seconds of the all-time snapshot rebuild over about 100,000 and 1,000,000 eligible users, warm and
 * cold. Runs the module's rebuild in this process (an application context on the same stores, jobs off); the
 * eligible count is set with `leaderboards.minTimeTyping`, restored afterwards. In order:
 * - the run's first build (100k): the first after the runner started PostgreSQL, and after seeding when it seeded;
 * - the same build again (warm), then the 1M build (warm);
 * - the 1M build after restarting PostgreSQL (its shared buffers empty) and the application (a new context), which
 *   leaves the full boards in place for the read scenarios.
 * A first build should cost no more than twice a warm one: nothing it waits on (statistics, hint bits, boards to
 * create) should be left for it by a bulk load or a restart.
 */
export async function snapshotScenario(context: BenchContext, env: AppEnv): Promise<ScenarioRow[]> {
  const open = () =>
    NestFactory.createApplicationContext(AppModule.forRoot({ env: { ...env, jobsEnabled: false } }), {
      logger: ['error', 'warn'],
    });
  let app = await open();
  const configuration = () => app.get(ServerConfigurationService);
  const original = (await configuration().get()).leaderboards.minTimeTyping;
  const rows: ScenarioRow[] = [];
  const build = async (id: string, size: number, when: string) => {
    const { threshold, eligible } = await thresholdFor(context, size, original);
    await configuration().patch({ leaderboards: { minTimeTyping: threshold } });
    context.log(`scenario 6: ${when} rebuild with minTimeTyping ${threshold} ...`);
    const { seconds, note } = await timedRebuild(app);
    rows.push({
      id,
      scenario: `all-time snapshot rebuild, ${size / 1000}k users, ${when}`,
      server: 'ours',
      result: null,
      seconds,
      note: `${eligible} eligible users, ${note}`,
    });
  };
  try {
    await build(`6-${SMALL}-first`, SMALL, 'first of the run');
    await build(`6-${SMALL}`, SMALL, 'warm');
    await build(`6-${LARGE}`, LARGE, 'warm');
    if (context.restartPostgres) {
      await app.close();
      context.log('scenario 6: restarting PostgreSQL ...');
      await context.restartPostgres();
      app = await open();
      await build(`6-${LARGE}-restart`, LARGE, 'after a restart');
    } else {
      rows.push(
        notAvailable(
          `6-${LARGE}-restart`,
          `all-time snapshot rebuild, ${LARGE / 1000}k users, after a restart`,
          'ours',
          'not available: the run attached to a PostgreSQL it did not start',
        ),
      );
    }
  } finally {
    // Not thrown: a failed restore must not hide the error that ended the scenario.
    await configuration()
      .patch({ leaderboards: { minTimeTyping: original } })
      .catch((e: Error) =>
        context.log(`could not restore leaderboards.minTimeTyping ${original}: ${e.message}`),
      )
      .finally(() => app.close());
  }
  return rows;
}
