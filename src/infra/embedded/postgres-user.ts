import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The OS identity PostgreSQL's processes run as when we are root (initdb and postgres refuse to run as root). */
export interface PostgresUser {
  name: string;
  uid: number;
  gid: number;
}

export const POSTGRES_USER_NAME = 'postgres';

function idOf(name: string): PostgresUser | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { name, uid, gid };
  } catch {
    return undefined;
  }
}

/**
 * Undefined when this process is not root: PostgreSQL then runs as ourselves. As root it runs as the `postgres`
 * system user, created here on first use (containers and CI runners often have only root).
 */
export function postgresUser(): PostgresUser | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const existing = idOf(POSTGRES_USER_NAME);
  if (existing) return existing;
  try {
    try {
      execFileSync('groupadd', ['--system', POSTGRES_USER_NAME], { stdio: 'pipe' });
    } catch {
      // The group may exist without the user (a removed server package leaves it behind).
    }
    execFileSync(
      'useradd',
      [
        '--system',
        '--gid',
        POSTGRES_USER_NAME,
        '--no-create-home',
        '--shell',
        '/usr/sbin/nologin',
        POSTGRES_USER_NAME,
      ],
      { stdio: 'pipe' },
    );
  } catch (e) {
    throw new Error(
      `The embedded PostgreSQL cannot run as root, and creating the "${POSTGRES_USER_NAME}" system user to run it ` +
        `as failed (${(e as Error).message.split('\n')[0]}). Create that user (useradd --system ${POSTGRES_USER_NAME}), ` +
        'run as a non-root user, or point DATABASE_URL at a PostgreSQL server.',
      { cause: e },
    );
  }
  const created = idOf(POSTGRES_USER_NAME);
  if (!created)
    throw new Error(`the "${POSTGRES_USER_NAME}" system user was created but cannot be looked up`);
  return created;
}

/** Whether `user` may search (x) directory `dir`, by its mode bits; supplementary groups are not counted. */
function searchable(dir: string, user: PostgresUser): boolean {
  try {
    const { mode, uid, gid } = statSync(dir);
    if (uid === user.uid) return (mode & 0o100) !== 0;
    if (gid === user.gid) return (mode & 0o010) !== 0;
    return (mode & 0o001) !== 0;
  } catch {
    return false;
  }
}

/**
 * The first directory on the way from `/` to `path` (itself included, when it exists) that `user` cannot pass, or
 * undefined when the whole way is open. A clone under /root or a `mktemp -d` directory (mode 0700) stops the
 * `postgres` user before it reaches the binaries or the data there.
 */
export function firstBlockedDirectory(path: string, user: PostgresUser): string | undefined {
  const chain: string[] = [];
  for (let dir = resolve(path); ; dir = dirname(dir)) {
    chain.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of chain) {
    let isDir: boolean;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      return undefined; // not created yet: we create it, open to the user
    }
    if (isDir && !searchable(dir, user)) return dir;
  }
  return undefined;
}
