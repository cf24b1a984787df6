import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase } from '../src/infra/database/database';
import { migrateToLatest } from '../src/infra/database/migrator';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/infra/embedded/embedded-postgres';
import { startRedisServer, type RedisServerHandle } from '../src/infra/embedded/redis-server';

export const TEMPLATE_DATABASE = 'typing_template';

declare global {
  var __TEST_STORES__:
    { postgres: EmbeddedPostgresHandle; redis: RedisServerHandle; dir: string } | undefined;
}

/**
 * One real PostgreSQL (embedded-postgres, throwaway directory) and one real redis-server for the whole run. The schema
 * is migrated once into a template database; every test app gets its own copy of it (CREATE DATABASE ... TEMPLATE)
 * and its own Redis logical database, so test files never see each other's data.
 */
export default async function globalSetup(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'typing-test-'));
  // Open to the `postgres` user PostgreSQL runs as when we are root (mkdtemp makes it 0700). Should TMPDIR itself be
  // private, startEmbeddedPostgres moves the cluster somewhere that user can reach.
  chmodSync(dir, 0o755);
  const [postgres, redis] = await Promise.all([
    // A parent that does not exist yet, as `.data/` on a fresh checkout's `npm run dev` and `.bench-data/` on the first
    // `npm run bench`: as root, the start must leave it reachable for the postgres user (every run proves it).
    startEmbeddedPostgres({
      dataDir: join(dir, 'stores', 'pg'),
      persistent: false,
      database: TEMPLATE_DATABASE,
    }),
    startRedisServer({ databases: 1024 }),
  ]);
  const db = createDatabase({ url: postgres.url, poolMax: 1 });
  await migrateToLatest(db);
  await db.destroy();
  globalThis.__TEST_STORES__ = { postgres, redis, dir };
  process.env.TEST_PG_ADMIN_URL = postgres.adminUrl;
  process.env.TEST_PG_TEMPLATE = TEMPLATE_DATABASE;
  process.env.TEST_REDIS_URL = redis.url;
}
