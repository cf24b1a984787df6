import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { SingleBar } from 'cli-progress';
import { AppModule } from '../app.module';
import { AppError } from '../common/app-error';
import type { Permission } from '../common/auth/policy.decorators';
import { EnvError, loadEnv } from '../config/env';
import { startDevStack } from '../infra/embedded/dev-stack';
import { AdminService } from '../modules/admin/admin.service';
import { PsasService } from '../modules/psas/psas.service';
import {
  LeaderboardSnapshotService,
  REBUILD_STEPS,
} from '../modules/leaderboards/leaderboard-snapshot.service';

const USAGE = `usage: npm run cli -- <command>

  permissions grant <uid> <admin|quoteMod>
  permissions revoke <uid> <admin|quoteMod>
  users ban <uid>
  users unban <uid>
  premium set <uid> <expirationMs|-1>
  premium clear <uid>
  leaderboards rebuild
  psas list
  psas add <message> [--level -1|0|1] [--sticky] [--date <ms>]
  psas remove <id>

Works against DATABASE_URL and REDIS_URL, or against the dev data directory (DEV_DATA_DIR, default .data) when
DATABASE_URL is unset (attaching to a running \`npm run dev\` or starting its stores for the duration).`;

type Command = (app: INestApplicationContext, args: string[], io: CliIo) => Promise<string>;

function permission(value: string | undefined): Permission {
  if (value !== 'admin' && value !== 'quoteMod') throw new UsageError(`unknown permission "${value ?? ''}"`);
  return value;
}

function uidArg(value: string | undefined): string {
  if (!value) throw new UsageError('missing <uid>');
  return value;
}

class UsageError extends Error {}

/** `psas add` options: `--level <n>`, `--sticky`, `--date <ms>` after the message. */
function psaOptions(args: string[]): { level?: number; sticky?: boolean; date?: number } {
  const options: { level?: number; sticky?: boolean; date?: number } = {};
  for (let i = 0; i < args.length; i += 1) {
    const flag = args[i];
    if (flag === '--sticky') options.sticky = true;
    else if ((flag === '--level' || flag === '--date') && /^-?\d+$/.test(args[i + 1] ?? '')) {
      options[flag === '--level' ? 'level' : 'date'] = Number(args[i + 1]);
      i += 1;
    } else throw new UsageError(`unknown or incomplete option "${flag ?? ''}"`);
  }
  return options;
}

const COMMANDS: Record<string, Command> = {
  'permissions grant': async (app, [uid, perm]) => {
    await app.get(AdminService).grantPermission(uidArg(uid), permission(perm));
    return `granted ${perm} to ${uid}`;
  },
  'permissions revoke': async (app, [uid, perm]) => {
    const revoked = await app.get(AdminService).revokePermission(uidArg(uid), permission(perm));
    return revoked ? `revoked ${perm} from ${uid}` : `${uid} did not have ${perm}`;
  },
  'users ban': async (app, [uid]) => {
    await app.get(AdminService).setBanned(uidArg(uid), true);
    return `banned ${uid}`;
  },
  'users unban': async (app, [uid]) => {
    await app.get(AdminService).setBanned(uidArg(uid), false);
    return `unbanned ${uid}`;
  },
  'premium set': async (app, [uid, expiration]) => {
    if (expiration === undefined || !/^-?\d+$/.test(expiration)) {
      throw new UsageError(
        'premium set needs <expirationMs> (milliseconds since the epoch) or -1 for lifetime',
      );
    }
    await app.get(AdminService).setPremium(uidArg(uid), Number(expiration));
    return `premium of ${uid} set to ${expiration === '-1' ? 'lifetime' : new Date(Number(expiration)).toISOString()}`;
  },
  'premium clear': async (app, [uid]) => {
    await app.get(AdminService).clearPremium(uidArg(uid));
    return `premium of ${uid} cleared`;
  },
  'psas list': async (app) => {
    const psas = await app.get(PsasService).list();
    return psas.length === 0 ? 'no PSAs' : psas.map((psa) => JSON.stringify(psa)).join('\n');
  },
  'psas add': async (app, [message, ...rest]) => {
    if (!message) throw new UsageError('missing <message>');
    return `added PSA ${(await app.get(PsasService).add({ message, ...psaOptions(rest) }))._id}`;
  },
  'psas remove': async (app, [id]) => {
    if (!id) throw new UsageError('missing <id>');
    return (await app.get(PsasService).remove(id)) ? `removed PSA ${id}` : `no PSA ${id}`;
  },
  'leaderboards rebuild': async (app, _args, io) => {
    const bar = new SingleBar({
      stream: io.progress ?? process.stderr,
      format: 'rebuilding all-time leaderboards [{bar}] {value}/{total} {step}',
      noTTYOutput: io.progress !== undefined,
    });
    bar.start(REBUILD_STEPS.length, 0, { step: '' });
    const summary = await app
      .get(LeaderboardSnapshotService)
      .rebuild((step, done) => bar.update(done, { step }))
      .finally(() => bar.stop());
    if (!summary) throw new AppError(409, 'another rebuild is running; try again when it has finished');
    return `rebuilt ${summary.boards} boards with ${summary.entries} entries in ${(summary.ms / 1000).toFixed(1)} s`;
  },
};

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Where progress bars go (default: stderr, drawn only on a terminal). */
  progress?: NodeJS.WritableStream;
}

/**
 * Runs one operator command and returns the exit code. `source` is the environment (process.env in production;
 * tests pass their stores). Without DATABASE_URL it attaches to, or starts, the dev data directory's stores.
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  source: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const [group, action, ...args] = argv;
  const command = COMMANDS[`${group ?? ''} ${action ?? ''}`];
  if (!command) {
    io.err(USAGE);
    return 2;
  }
  const stack = source.DATABASE_URL
    ? undefined
    : await startDevStack({ dataDir: source.DEV_DATA_DIR ?? '.data', redisUrl: source.REDIS_URL });
  let app: INestApplicationContext | undefined;
  try {
    const env = loadEnv(
      {
        ...source,
        MODE: source.MODE ?? (stack ? 'dev' : 'production'),
        DATABASE_URL: source.DATABASE_URL ?? stack?.databaseUrl,
        REDIS_URL: source.REDIS_URL ?? stack?.redisUrl,
        LOG_LEVEL: source.LOG_LEVEL ?? 'warn',
        JOBS_ENABLED: 'false',
      },
      { authProvider: 'none' },
    );
    app = await NestFactory.createApplicationContext(AppModule.forRoot({ env }), {
      logger: ['error', 'warn'],
    });
    io.out(await command(app, args, io));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) io.err(`${e.message}\n\n${USAGE}`);
    else if (e instanceof AppError || e instanceof EnvError) io.err(e.message);
    else io.err(e instanceof Error ? (e.stack ?? e.message) : String(e));
    return 1;
  } finally {
    await app?.close();
    await stack?.stop();
  }
}
