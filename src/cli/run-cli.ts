import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { AppError } from '../common/app-error';
import type { Permission } from '../common/auth/policy.decorators';
import { EnvError, loadEnv } from '../config/env';
import { startDevStack } from '../infra/embedded/dev-stack';
import { AdminService } from '../modules/admin/admin.service';

const USAGE = `usage: npm run cli -- <command>

  permissions grant <uid> <admin|quoteMod>
  permissions revoke <uid> <admin|quoteMod>
  users ban <uid>
  users unban <uid>
  premium set <uid> <expirationMs|-1>
  premium clear <uid>

Works against DATABASE_URL and REDIS_URL, or against the dev data directory (DEV_DATA_DIR, default .data) when
DATABASE_URL is unset (attaching to a running \`npm run dev\` or starting its stores for the duration).`;

type Command = (app: INestApplicationContext, args: string[]) => Promise<string>;

function permission(value: string | undefined): Permission {
  if (value !== 'admin' && value !== 'quoteMod') throw new UsageError(`unknown permission "${value ?? ''}"`);
  return value;
}

function uidArg(value: string | undefined): string {
  if (!value) throw new UsageError('missing <uid>');
  return value;
}

class UsageError extends Error {}

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
};

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
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
    io.out(await command(app, args));
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
