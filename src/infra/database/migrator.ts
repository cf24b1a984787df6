import { Kysely, Migrator, type MigrationResultSet } from 'kysely';
import { MIGRATIONS } from './migrations';

function migratorFor<T>(db: Kysely<T>): Migrator {
  return new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
    migrationTableName: 'kysely_migration',
    migrationLockTableName: 'kysely_migration_lock',
  });
}

function unwrap(result: MigrationResultSet): string[] {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${reason}`);
  }
  return (result.results ?? []).map(
    (r) => `${r.direction === 'Up' ? 'applied' : 'reverted'} ${r.migrationName}`,
  );
}

/** Applies every pending migration; Kysely's lock table makes concurrent starts safe. */
export async function migrateToLatest<T>(db: Kysely<T>): Promise<string[]> {
  return unwrap(await migratorFor(db).migrateToLatest());
}

export async function migrateDown<T>(db: Kysely<T>): Promise<string[]> {
  return unwrap(await migratorFor(db).migrateDown());
}
