import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres';
import { startRedisServer } from './redis-server';

export interface DevStack {
  databaseUrl: string;
  redisUrl: string;
  /** Stops what this process started (nothing when it attached to a running stack). */
  stop(): Promise<void>;
  /**
   * Stops PostgreSQL and starts it again on the same port and data (empty shared buffers, as after a restart or a
   * crash); only when this process started it. The benchmark measures the first snapshot build after it.
   */
  restartPostgres?(): Promise<void>;
}

const STACK_FILE = 'dev-stack.json';

async function reachable(databaseUrl: string): Promise<boolean> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * The embedded stores of `npm run dev`: PostgreSQL in `<dataDir>/postgres` (kept between runs) and a redis-server on a
 * free port (or `redisUrl`). When a dev server already runs on this data directory, attach to its stores instead
 * (the CLI does this), because one PostgreSQL data directory serves one server.
 */
export async function startDevStack(options: {
  dataDir: string;
  redisUrl?: string;
  log?: (line: string) => void;
  publish?: boolean;
  /** PostgreSQL and redis-server in process groups of their own; the caller stops them after its app (on Ctrl-C too). */
  ownProcessGroup?: boolean;
}): Promise<DevStack> {
  const dataDir = resolve(options.dataDir);
  const stackFile = join(dataDir, STACK_FILE);
  if (existsSync(stackFile)) {
    const running = JSON.parse(readFileSync(stackFile, 'utf8')) as { databaseUrl: string; redisUrl: string };
    if (await reachable(running.databaseUrl)) {
      return {
        databaseUrl: running.databaseUrl,
        redisUrl: options.redisUrl ?? running.redisUrl,
        stop: async () => {},
      };
    }
    rmSync(stackFile, { force: true });
  }
  const postgresOptions = {
    dataDir: join(dataDir, 'postgres'),
    persistent: true,
    database: 'typing',
    onLog: options.log,
    ownProcessGroup: options.ownProcessGroup,
  };
  let postgres = await startEmbeddedPostgres(postgresOptions);
  let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  try {
    redis = options.redisUrl
      ? undefined
      : await startRedisServer({ dataDir: join(dataDir, 'redis'), ownProcessGroup: options.ownProcessGroup });
  } catch (e) {
    // Nothing else would stop the PostgreSQL just started before this process exits.
    await postgres.stop();
    throw e;
  }
  const redisUrl = options.redisUrl ?? (redis as { url: string }).url;
  if (options.publish) writeFileSync(stackFile, JSON.stringify({ databaseUrl: postgres.url, redisUrl }));
  return {
    databaseUrl: postgres.url,
    redisUrl,
    stop: async () => {
      if (options.publish) rmSync(stackFile, { force: true });
      await redis?.stop();
      await postgres.stop();
    },
    restartPostgres: async () => {
      await postgres.stop();
      postgres = await startEmbeddedPostgres({ ...postgresOptions, port: postgres.port });
    },
  };
}
