import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { startDevStack } from '../embedded/dev-stack';
import { describeTarget } from '../runtime/target';
import { TERMINAL_IO, type TerminalIo } from '../runtime/terminal-io';
import { createDatabase } from './database';
import { migrateDown, migrateToLatest } from './migrator';

const REFUSAL =
  'DATABASE_URL is not set: refusing to guess a database. Set DATABASE_URL, or pass --dev to migrate the dev ' +
  'data directory (DEV_DATA_DIR, default .data).';

function direction(value: string): 'latest' | 'down' {
  if (value !== 'latest' && value !== 'down') throw new InvalidArgumentError('latest or down');
  return value;
}

/**
 * `npm run migrate -- [latest|down] [--dev]` against DATABASE_URL; the dev data directory's embedded database only
 * when asked for with --dev. Prints the target (without password) before it changes anything. Returns the exit
 * code: 0 done, 1 failed, 2 usage.
 */
export async function runMigrate(argv: string[], io: TerminalIo, source: NodeJS.ProcessEnv): Promise<number> {
  let options: { dev?: boolean } = {};
  let which: 'latest' | 'down' = 'latest';
  const program = new Command('npm run migrate --')
    .description('Apply the schema migrations (latest), or undo the last one (down)')
    .argument('[direction]', 'latest (default) or down', direction, 'latest')
    .option('--dev', 'migrate the dev data directory (DEV_DATA_DIR, default .data) instead of DATABASE_URL')
    .exitOverride()
    .configureOutput({ writeOut: (t) => io.out(t.trimEnd()), writeErr: (t) => io.err(t.trimEnd()) })
    .action((d: 'latest' | 'down', o: { dev?: boolean }) => {
      which = d;
      options = o;
    });
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    throw e;
  }
  if (!source.DATABASE_URL && !options.dev) {
    io.err(REFUSAL);
    return 2;
  }
  const stack = source.DATABASE_URL
    ? undefined
    : await startDevStack({ dataDir: source.DEV_DATA_DIR ?? '.data', redisUrl: 'redis://unused' });
  const url = source.DATABASE_URL ?? (stack as { databaseUrl: string }).databaseUrl;
  io.err(
    `target: ${describeTarget(url)}${stack ? ` (dev data directory ${source.DEV_DATA_DIR ?? '.data'})` : ''}`,
  );
  const db = createDatabase({ url, poolMax: 1 });
  try {
    const lines = which === 'latest' ? await migrateToLatest(db) : await migrateDown(db);
    io.out(lines.length > 0 ? lines.join('\n') : 'nothing to do');
    return 0;
  } catch (e) {
    io.err(e instanceof Error ? e.message : String(e));
    return 1;
  } finally {
    await db.destroy();
    await stack?.stop();
  }
}

if (require.main === module) {
  runMigrate(process.argv.slice(2), TERMINAL_IO, process.env).then(
    (code) => process.exit(code),
    (e: unknown) => {
      TERMINAL_IO.err(e instanceof Error ? e.message : String(e));
      process.exit(1);
    },
  );
}
