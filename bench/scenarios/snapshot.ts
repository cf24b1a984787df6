import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer, NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app.module';
import type { AppEnv } from '../../src/config/env';
import { ServerConfigurationService } from '../../src/config/server-configuration.service';
import type { BenchContext, ScenarioRow } from './context';

/** Method names under which a leaderboard provider may expose the all-time rebuild. */
const REBUILD_METHODS = ['rebuildAllTime', 'rebuildAllTimeSnapshot', 'rebuildSnapshot', 'rebuild'];
const SIZES = [100_000, 1_000_000];

/**
 * The all-time snapshot rebuild of the leaderboard module, found by shape (a provider of a leaderboard class with one
 * of REBUILD_METHODS), since this harness was written before that module existed. Null when there is none.
 * When the module lands, replace this with a direct `app.get(TheService).theMethod()`.
 */
export function findSnapshotRebuild(app: INestApplicationContext): (() => Promise<unknown>) | null {
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.providers.values()) {
      const instance = wrapper.instance as Record<string, unknown> | null | undefined;
      if (!instance || typeof instance !== 'object') continue;
      if (!/leaderboard/i.test(instance.constructor?.name ?? '')) continue;
      for (const method of REBUILD_METHODS) {
        const fn = instance[method];
        if (typeof fn === 'function') return () => Promise.resolve(fn.call(instance));
      }
    }
  }
  return null;
}

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
    const rebuild = findSnapshotRebuild(app);
    const label = (n: number) => `all-time snapshot rebuild, ${n / 1000}k users`;
    if (!rebuild) {
      return SIZES.map((n) => ({
        id: `6-${n}`,
        scenario: label(n),
        server: 'ours' as const,
        result: null,
        note: 'not available: no leaderboard rebuild on this build',
      }));
    }
    const configuration = app.get(ServerConfigurationService);
    const original = (await configuration.get()).leaderboards.minTimeTyping;
    const rows: ScenarioRow[] = [];
    try {
      for (const size of SIZES) {
        const { threshold, eligible } = await thresholdFor(context, size, original);
        await configuration.patch({ leaderboards: { minTimeTyping: threshold } });
        context.log(`scenario 6: rebuild with minTimeTyping ${threshold} ...`);
        const startedAt = process.hrtime.bigint();
        await rebuild();
        const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
        rows.push({
          id: `6-${size}`,
          scenario: label(size),
          server: 'ours',
          result: null,
          seconds,
          note: `${eligible} eligible users`,
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
