import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../embedded/embedded-postgres';
import { createDatabase } from './database';
import { migrateToLatest } from './migrator';

/**
 * `npm run db:codegen`: migrates a throwaway embedded PostgreSQL to the latest schema and regenerates
 * src/infra/database/database.types.ts from it with kysely-codegen. Commit the result with the migration.
 */
async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'typing-codegen-'));
  // PostgreSQL runs as its own user when we are root; it must be able to reach its directory.
  chmodSync(dir, 0o755);
  const pg = await startEmbeddedPostgres({
    dataDir: join(dir, 'pg'),
    persistent: false,
    database: 'codegen',
  });
  try {
    const db = createDatabase({ url: pg.url, poolMax: 1 });
    await migrateToLatest(db);
    await db.destroy();
    const out = 'src/infra/database/database.types.ts';
    const result = spawnSync(
      'npx',
      [
        'kysely-codegen',
        '--dialect',
        'postgres',
        '--url',
        pg.url,
        '--out-file',
        out,
        '--exclude-pattern',
        // The snapshot's partitions are read through their parent, leaderboard_entries.
        '{kysely_*,leaderboard_shard_*}',
        // int8 columns are parsed to numbers (see database.ts).
        '--type-mapping',
        JSON.stringify({ int8: 'number' }),
        ...(process.argv.includes('--verify') ? ['--verify'] : []),
      ],
      { stdio: 'inherit' },
    );
    if (result.status !== 0) throw new Error('kysely-codegen failed');
  } finally {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
