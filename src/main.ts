import { createApp } from './app.factory';
import { EnvError, loadEnv, type AppEnv } from './config/env';
import { ENV_VARIABLES } from './config/env-variables';
import { createDatabase } from './infra/database/database';
import { migrateToLatest } from './infra/database/migrator';
import { gracefulShutdown } from './infra/runtime/graceful-shutdown';
import { DependencyError, preflight } from './infra/runtime/preflight';
import { processLog } from './infra/runtime/process-log';

const log = processLog();

/** SHUTDOWN_GRACE_MS: how long /readyz reports 503 before the server stops accepting (default 5 s). */
function shutdownGraceMs(): number {
  const raw = process.env.SHUTDOWN_GRACE_MS;
  const { default: fallback, min } = ENV_VARIABLES.SHUTDOWN_GRACE_MS;
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw new EnvError(`SHUTDOWN_GRACE_MS must be an integer >= ${min} (got "${raw}")`);
  return n;
}

/** Production entry: configuration from the environment only (see docs/configuration.md). */
async function main(): Promise<void> {
  let env: AppEnv;
  let graceMs: number;
  try {
    env = loadEnv(process.env);
    graceMs = shutdownGraceMs();
  } catch (e) {
    if (e instanceof EnvError) {
      log.fatal({ err: e.message, see: 'docs/configuration.md' }, 'cannot start: configuration');
      process.exit(1);
    }
    throw e;
  }
  try {
    await preflight(env);
  } catch (e) {
    if (e instanceof DependencyError) {
      log.fatal(
        { variable: e.variable, target: e.target, err: e.message },
        `cannot start: ${e.variable} ${e.problem}`,
      );
      process.exit(1);
    }
    throw e;
  }
  if (process.env.MIGRATE_ON_START === 'true') {
    const db = createDatabase({ url: env.databaseUrl, poolMax: 1 });
    try {
      for (const line of await migrateToLatest(db)) log.info({ migration: line }, 'migration');
    } finally {
      await db.destroy();
    }
  }
  const app = await createApp({ env });
  const shutdown = gracefulShutdown(app, { graceMs, log, exit: (code) => process.exit(code) });
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  await app.listen(env.port, env.host);
  log.info({ host: env.host, port: env.port, mode: env.mode }, `listening on http://${env.host}:${env.port}`);
}

main().catch((e: unknown) => {
  // One JSON line, the stack as a field: a log collector must not split a start-up failure into 20 entries.
  log.fatal({ err: e instanceof Error ? { message: e.message, stack: e.stack } : String(e) }, 'cannot start');
  process.exit(1);
});
