import { startDevStack } from '../embedded/dev-stack';
import { createDatabase } from './database';
import { migrateDown, migrateToLatest } from './migrator';

/**
 * `npm run migrate [latest|down]` against DATABASE_URL, or the dev data directory's embedded database when unset.
 */
async function main(): Promise<void> {
  const direction = process.argv[2] ?? 'latest';
  if (direction !== 'latest' && direction !== 'down') {
    console.error('usage: npm run migrate -- [latest|down]');
    process.exit(2);
  }
  const stack = process.env.DATABASE_URL
    ? undefined
    : await startDevStack({ dataDir: process.env.DEV_DATA_DIR ?? '.data', redisUrl: 'redis://unused' });
  const db = createDatabase({
    url: process.env.DATABASE_URL ?? (stack as { databaseUrl: string }).databaseUrl,
    poolMax: 1,
  });
  try {
    const lines = direction === 'latest' ? await migrateToLatest(db) : await migrateDown(db);
    console.log(lines.length > 0 ? lines.join('\n') : 'nothing to do');
  } finally {
    await db.destroy();
    await stack?.stop();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
