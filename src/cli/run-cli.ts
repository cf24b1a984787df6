import { Module, type INestApplicationContext, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { Command, CommanderError } from 'commander';
import { AccountLifecycleModule } from '../common/account-lifecycle';
import { AppError } from '../common/app-error';
import { ConfigModule } from '../config/config.module';
import { ServerConfigurationModule } from '../common/server-configuration/server-configuration.module';
import { EnvError, loadEnv, type AppEnv } from '../config/env';
import { DatabaseModule } from '../infra/database/database.module';
import { startDevStack } from '../infra/embedded/dev-stack';
import { RedisModule } from '../infra/redis/redis.module';
import { DependencyError, preflight } from '../infra/runtime/preflight';
import { describeRedisTarget, describeTarget } from '../infra/runtime/target';
import type { CliContext, CliIo, CommandGroup } from './cli-context';
import { UsageError } from './cli-context';
import { importCommands } from './commands/import';
import { instancesCommands } from './commands/instances';
import { leaderboardsCommands } from './commands/leaderboards';
import { permissionsCommands } from './commands/permissions';
import { premiumCommands } from './commands/premium';
import { psasCommands } from './commands/psas';
import { resultsCommands } from './commands/results';
import { usersCommands } from './commands/users';

export type { CliIo } from './cli-context';

/** Every command group; a new group is one file in commands/ and one entry here. */
const COMMAND_GROUPS: CommandGroup[] = [
  permissionsCommands,
  usersCommands,
  premiumCommands,
  leaderboardsCommands,
  psasCommands,
  importCommands,
  instancesCommands,
  resultsCommands,
];

const TARGET_HELP = `
Target: DATABASE_URL and REDIS_URL. Without DATABASE_URL the CLI refuses to run, unless --dev asks for the
dev data directory's stores (DEV_DATA_DIR, default .data: attaches to a running \`npm run dev\` or starts its
stores for the duration). The target is printed (without password) before anything changes.`;

const REFUSAL =
  'DATABASE_URL is not set: refusing to guess a database. Set DATABASE_URL and REDIS_URL, or pass --dev to use ' +
  'the dev data directory (DEV_DATA_DIR, default .data).';

interface Target {
  env: AppEnv;
  stop(): Promise<void>;
}

/** DATABASE_URL, or the dev stores when asked for with --dev; never a silent fallback. */
async function resolveTarget(source: NodeJS.ProcessEnv, dev: boolean, io: CliIo): Promise<Target> {
  if (!source.DATABASE_URL && !dev) throw new UsageError(REFUSAL);
  let stack: { databaseUrl: string; redisUrl: string; stop(): Promise<void> } | undefined;
  if (!source.DATABASE_URL) {
    // A Redis Cluster named in the environment is used as is: the dev stack then starts PostgreSQL only.
    const redisUrl = source.REDIS_URL ?? (source.REDIS_CLUSTER_NODES ? 'redis://unused' : undefined);
    stack = await startDevStack({ dataDir: source.DEV_DATA_DIR ?? '.data', redisUrl });
  }
  try {
    const env = loadEnv(
      {
        ...source,
        MODE: source.MODE ?? (stack ? 'dev' : 'production'),
        DATABASE_URL: source.DATABASE_URL ?? stack?.databaseUrl,
        REDIS_URL: source.REDIS_URL ?? (source.REDIS_CLUSTER_NODES ? undefined : stack?.redisUrl),
        JOBS_ENABLED: 'false',
      },
      { authProvider: 'none' },
    );
    io.err(
      `target: ${describeTarget(env.databaseUrl)} and ${describeRedisTarget(env)}` +
        (stack ? ` (dev data directory ${source.DEV_DATA_DIR ?? '.data'})` : ''),
    );
    return { env, stop: async () => stack?.stop() };
  } catch (e) {
    await stack?.stop();
    throw e;
  }
}

@Module({})
class CliModule {}

/** The stores, the configuration and the account lifecycle: what every command's services stand on. */
async function bootContext(env: Target['env'], modules: Type[]): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(
    {
      module: CliModule,
      imports: [
        ConfigModule.forRoot(env),
        DatabaseModule,
        RedisModule,
        ServerConfigurationModule,
        AccountLifecycleModule,
        ScheduleModule.forRoot(),
        ...modules,
      ],
    },
    // A wiring mistake must surface as an error here, not as Nest's process.exit(1).
    { logger: ['error', 'warn'], abortOnError: false },
  );
}

function reportFailure(e: unknown, io: CliIo): number {
  if (e instanceof UsageError) {
    io.err(e.message);
    return 2;
  }
  if (e instanceof AppError || e instanceof EnvError || e instanceof DependencyError) io.err(e.message);
  else io.err(e instanceof Error ? (e.stack ?? e.message) : String(e));
  return 1;
}

function buildProgram(cli: CliContext, io: CliIo): Command {
  const program = new Command('npm run cli --')
    .description('Operator commands of the typing platform API')
    .option('--dev', 'use the dev data directory (DEV_DATA_DIR, default .data) instead of DATABASE_URL')
    .addHelpText('after', TARGET_HELP)
    .showHelpAfterError('(add --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.out(text.trimEnd()),
      writeErr: (text) => io.err(text.trimEnd()),
    });
  for (const register of COMMAND_GROUPS) register(program, cli);
  // Groups inherit the behaviour that keeps commander from calling process.exit or writing to the console.
  for (const command of program.commands) {
    command
      .exitOverride()
      .configureOutput(program.configureOutput())
      .showHelpAfterError('(add --help for usage)');
    for (const sub of command.commands) sub.exitOverride().configureOutput(program.configureOutput());
  }
  return program;
}

/**
 * Runs one operator command and returns the exit code: 0 done, 1 failed, 2 usage (bad arguments, no target).
 * Arguments are parsed and validated before anything boots; a command boots only the modules it needs.
 * `source` is the environment (process.env in production; tests pass their stores).
 */
export async function runCli(
  argv: string[],
  io: CliIo,
  source: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  let code = 0;
  const cli: CliContext = {
    io,
    async run(modules, work) {
      let target: Target | undefined;
      let app: INestApplicationContext | undefined;
      try {
        target = await resolveTarget(source, program.opts<{ dev?: boolean }>().dev === true, io);
        // A wrong URL or password is named in one line, and nothing half-booted is left holding connections.
        await preflight(target.env);
        app = await bootContext(target.env, modules);
        const line = await work(app);
        if (line !== undefined) io.out(line);
      } catch (e) {
        code = reportFailure(e, io);
      } finally {
        await app?.close();
        await target?.stop();
      }
    },
  };
  const program = buildProgram(cli, io);
  if (argv.length === 0) {
    program.outputHelp({ error: true });
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      // --help and --version are "errors" to commander; they succeeded for the operator.
      return e.exitCode === 0 ? 0 : 2;
    }
    return reportFailure(e, io);
  }
  return code;
}
