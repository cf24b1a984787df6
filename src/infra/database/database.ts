import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './database.types';

// int8 columns hold millisecond timestamps and XP totals; both stay far below 2^53, so numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export type Database = Kysely<DB>;
export const DATABASE = Symbol('DATABASE');

export interface DatabaseOptions {
  url: string;
  poolMax?: number;
  applicationName?: string;
}

export function createDatabase(options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 20,
    application_name: options.applicationName ?? 'typing-platform-api',
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  return new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
}
