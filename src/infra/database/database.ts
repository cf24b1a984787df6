import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './database.types';
import { namedStatement } from './prepared-query';

// int8 columns hold millisecond timestamps and XP totals; both stay far below 2^53, so numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));

export type Database = Kysely<DB>;
export const DATABASE = Symbol('DATABASE');

export interface DatabaseOptions {
  url: string;
  poolMax?: number;
  applicationName?: string;
  /** PostgreSQL `statement_timeout` of every connection (ms); omitted or 0: none (migrations, seeders). */
  statementTimeoutMs?: number;
  /** Longest wait for a pool connection, including a new connection's handshake (ms); omitted: 10 s. */
  connectTimeoutMs?: number;
}

/**
 * Sends PreparedQuery statements as named prepared statements: pg parses them once per connection and PostgreSQL
 * keeps their plan, so later executions only bind values. Kysely calls `query(text, values)`; every other form
 * passes through untouched.
 */
function prepareNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    const [text, values] = args;
    const name = args.length === 2 && typeof text === 'string' ? namedStatement(text) : undefined;
    return name === undefined ? query(...args) : query({ name, text, values });
  }) as typeof client.query;
}

const pools = new WeakMap<Database, pg.Pool>();

/** The pg pool behind a database made by `createDatabase` (pool gauges, error events). */
export function poolOf(db: Database): pg.Pool | undefined {
  return pools.get(db);
}

export function createDatabase(options: DatabaseOptions): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolMax ?? 20,
    application_name: options.applicationName ?? 'typing-platform-api',
    idleTimeoutMillis: 30_000,
    // A dead or unreachable server fails requests after this wait (503) instead of queueing them forever; the pool
    // discards broken connections on release and opens new ones on demand, so it recovers by itself.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
    ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    // TCP keep-alive notices a server that vanished without closing the connection (network cut).
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    // A connection lost while a request holds the client (server restart, network cut) is reported as an 'error'
    // event that no one else listens to then, which would crash the process; the failing query is rejected anyway and
    // the pool discards the broken client when it is released.
    client.on('error', () => undefined);
    prepareNamedStatements(client);
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  pools.set(db, pool);
  return db;
}
