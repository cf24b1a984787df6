import { parseArgs } from 'node:util';
import { DEFAULT_SIZE } from '../lib/dataset';
import { startBenchStack } from '../lib/stack';
import { seed } from './seeder';
import { argumentsOrUsage } from '../lib/cli';

const USAGE = `usage: npm run bench:seed -- [--users N] [--results-per-user N] [--board-users N] [--jobs N] [--reset]

  --users             full users with a result history (default ${DEFAULT_SIZE.users})
  --results-per-user  results of each full user (default ${DEFAULT_SIZE.resultsPerUser})
  --board-users       users on the largest all-time board, full users included (default ${DEFAULT_SIZE.boardUsers})
  --jobs              batches written in parallel (default 2)
  --reset             empty the dataset and seed it anew

Seeds the embedded stores in .bench-data (or DATABASE_URL/REDIS_URL when both are set). Running it again with the
same sizes does nothing; an interrupted run resumes where it stopped.`;

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer (got "${raw}")`);
  return n;
}

export function parseSeedArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      users: { type: 'string' },
      'results-per-user': { type: 'string' },
      'board-users': { type: 'string' },
      jobs: { type: 'string' },
      reset: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const users = positive('users', values.users, DEFAULT_SIZE.users);
  return {
    help: values.help ?? false,
    users,
    resultsPerUser: positive('results-per-user', values['results-per-user'], DEFAULT_SIZE.resultsPerUser),
    boardUsers: positive('board-users', values['board-users'], Math.max(users, DEFAULT_SIZE.boardUsers)),
    jobs: positive('jobs', values.jobs, 2),
    reset: values.reset ?? false,
  };
}

async function main(): Promise<void> {
  const args = argumentsOrUsage(parseSeedArgs, USAGE);
  if (!args) return;
  const stack = await startBenchStack((line) => console.log(line));
  try {
    const summary = await seed({ ...args, databaseUrl: stack.databaseUrl, log: (line) => console.log(line) });
    const rate = summary.seconds > 0 ? Math.round(summary.rowsWritten / summary.seconds) : 0;
    console.log(
      `seeded: ${summary.rowsWritten.toLocaleString('en-US')} rows in ${summary.seconds.toFixed(1)} s ` +
        `(${rate.toLocaleString('en-US')} rows/s); whole dataset seeded in ${summary.totalSeconds.toFixed(1)} s`,
    );
    console.log(
      'tables (estimated rows): ' +
        Object.entries(summary.tableRows)
          .map(([table, n]) => `${table} ${n.toLocaleString('en-US')}`)
          .join(', '),
    );
  } finally {
    await stack.stop();
  }
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
