import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app.module';
import type { AppEnv } from '../../src/config/env';
import { ServerConfigurationService } from '../../src/config/server-configuration.service';
import { LeaderboardSnapshotService } from '../../src/modules/leaderboards/leaderboard-snapshot.service';
import type { BenchContext, ScenarioRow } from './context';

const SIZES = [100_000, 1_000_000];

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

/**
 * Scenario 6: seconds of one all-time snapshot rebuild over about 100,000 and 1,000,000 eligible users. Runs the
 * module's rebuild in this process (an application context on the same stores, jobs off); the eligible count is set
 * with `leaderboards.minTimeTyping`, restored afterwards, and the last rebuild leaves the full boards in place for the
 * read scenarios.
 */
export async function snapshotScenario(context: BenchContext, env: AppEnv): Promise<ScenarioRow[]> {
  const app = await NestFactory.createApplicationContext(
    AppModule.forRoot({ env: { ...env, jobsEnabled: false } }),
    {
      logger: ['error', 'warn'],
    },
  );
  try {
    const snapshot = app.get(LeaderboardSnapshotService);
    const label = (n: number) => `all-time snapshot rebuild, ${n / 1000}k users`;
    const configuration = app.get(ServerConfigurationService);
    const original = (await configuration.get()).leaderboards.minTimeTyping;
    const rows: ScenarioRow[] = [];
    try {
      for (const size of SIZES) {
        const { threshold, eligible } = await thresholdFor(context, size, original);
        await configuration.patch({ leaderboards: { minTimeTyping: threshold } });
        context.log(`scenario 6: rebuild with minTimeTyping ${threshold} ...`);
        const steps: string[] = [];
        let last = process.hrtime.bigint();
        const startedAt = last;
        const summary = await snapshot.rebuild((step) => {
          const now = process.hrtime.bigint();
          steps.push(`${step} ${(Number(now - last) / 1e9).toFixed(2)} s`);
          last = now;
        });
        const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
        if (!summary) throw new Error('another process was rebuilding the snapshot at the same time');
        rows.push({
          id: `6-${size}`,
          scenario: label(size),
          server: 'ours',
          result: null,
          seconds,
          note: `${eligible} eligible users, ${summary.entries} entries on ${summary.boards} boards (${steps.join(', ')})`,
        });
      }
    } finally {
      await configuration.patch({ leaderboards: { minTimeTyping: original } });
    }
    return rows;
  } finally {
    await app.close();
  }
}
