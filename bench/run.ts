import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { RATE_LIMIT_CLASSES } from '../src/common/rate-limit/rate-limit-classes';
import { loadEnv } from '../src/config/env';
import { freePort } from '../src/infra/embedded/free-port';
import { DEFAULT_SIZE, type DatasetSize } from './lib/dataset';
import { evaluateTargets, importTarget, renderRatios, renderTable, renderTargets } from './lib/report';
import { cleanUpOnce } from './lib/clean-up';
import { scriptNodeFlags } from './lib/node-flags';
import { startServerProcess, type ServerProcess } from './lib/server-process';
import { postmasterPid } from './lib/postgres-cpu';
import { benchDataDir, startBenchStack } from './lib/stack';
import { BENCH_AUDIENCE, BENCH_ISSUER, BenchIssuer } from './lib/tokens';
import type { BenchContext, ScenarioRow } from './scenarios/context';
import { leaderboardPageScenario, leaderboardRankScenario } from './scenarios/leaderboards';
import { openLoopScenario } from './scenarios/open-loop';
import { liveRanksScenario } from './scenarios/live-ranks';
import { profileScenario } from './scenarios/profile';
import { importOriginalScenario } from './scenarios/import-original';
import { resultsReadScenario } from './scenarios/results-read';
import { snapshotScenario } from './scenarios/snapshot';
import { sequentialScenario } from './scenarios/sequential';
import { submitScenario } from './scenarios/submit';
import { exportScenario } from './scenarios/export';
import { tribeScenario } from './scenarios/tribe';
import { createDatabase } from '../src/infra/database/database';
import { migrateToLatest } from '../src/infra/database/migrator';

import { seed } from './seed/seeder';
import { argumentsOrUsage } from './lib/cli';

const USAGE = `usage: npm run bench -- [options]

  --connections N       concurrent connections (default 64)
  --duration S          seconds per read scenario (default 10)
  --submit-requests N   POST /results per server in scenario 1, one per user (default 20000)
  --rounds N            scenario 1 alternates ours and the baseline in N rounds, best round counts (default 3)
  --only LIST           scenarios to run, e.g. 1,5 (default all: 1,2,3,4,5,6,7,8,9,10,11,12); --only 9, 10, 12 or any
                        of them together needs no dataset and no baseline (9 imports into a database of its own, 10
                        seeds its own account, 12 races on an empty one)
  --tribe-rooms N       rooms of 8 racing players in scenario 12 (default 50)
  --import-users N, --import-results-per-user N
                        size of scenario 9's dump of the original platform (default 100000 x 10)
  --export-results N    results of scenario 10's account (default 100000)
  --open-rate N         requests/s of every route in scenario 8 (default: half the maximum this run measured for
                        the route, else a fixed default; the report says which)
  --profile             CPU-profile our server (.bench-data/profiles/*.cpuprofile)
  --users, --results-per-user, --board-users
                        dataset size when it still has to be seeded (see npm run bench:seed -- --help)`;

/** The server configuration of the run: the features a production site has on (XP, streaks, premium). */
const SERVER_CONFIGURATION = {
  users: {
    xp: {
      enabled: true,
      funboxBonus: 0.5,
      gainMultiplier: 1,
      maxDailyBonus: 100,
      minDailyBonus: 10,
      streak: { enabled: true, maxStreakDays: 30, maxStreakMultiplier: 0.5 },
    },
    premium: { enabled: true },
  },
  // Scenario 12 races through Tribe.
  tribe: { mode: 'enabled' },
};

function positive(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined) return fallback;
  const n = Number(raw.replace(/_/g, ''));
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number (got "${raw}")`);
  return n;
}

function parseRunArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      connections: { type: 'string' },
      duration: { type: 'string' },
      'submit-requests': { type: 'string' },
      only: { type: 'string' },
      rounds: { type: 'string' },
      profile: { type: 'boolean', default: false },
      users: { type: 'string' },
      'results-per-user': { type: 'string' },
      'board-users': { type: 'string' },
      'open-rate': { type: 'string' },
      'export-results': { type: 'string' },
      'tribe-rooms': { type: 'string' },
      'import-users': { type: 'string' },
      'import-results-per-user': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const only = new Set((values.only ?? '1,2,3,4,5,6,7,8,9,10,11,12').split(',').map((s) => s.trim()));
  return {
    help: values.help ?? false,
    connections: Math.round(positive(values.connections, 64, 'connections')),
    duration: positive(values.duration, 10, 'duration'),
    submitRequests: Math.round(positive(values['submit-requests'], 20_000, 'submit-requests')),
    rounds: Math.round(positive(values.rounds, 3, 'rounds')),
    only,
    profile: values.profile ?? false,
    openRate: values['open-rate'] === undefined ? undefined : positive(values['open-rate'], 0, 'open-rate'),
    exportResults: Math.round(positive(values['export-results'], 100_000, 'export-results')),
    tribeRooms: Math.round(positive(values['tribe-rooms'], 50, 'tribe-rooms')),
    importSize: {
      users: Math.round(positive(values['import-users'], 100_000, 'import-users')),
      resultsPerUser: Math.round(positive(values['import-results-per-user'], 10, 'import-results-per-user')),
    },
    size: {
      users: values.users === undefined ? undefined : Math.round(positive(values.users, 0, 'users')),
      resultsPerUser:
        values['results-per-user'] === undefined
          ? undefined
          : Math.round(positive(values['results-per-user'], 0, 'results-per-user')),
      boardUsers:
        values['board-users'] === undefined
          ? undefined
          : Math.round(positive(values['board-users'], 0, 'board-users')),
    },
  };
}

/** The sizes to seed: the flags, else what an earlier run seeded, else the defaults. */
async function datasetSize(databaseUrl: string, flags: Partial<DatasetSize>): Promise<DatasetSize> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client
      .query<{ users: number; results_per_user: number; board_users: number }>(
        `SELECT users, results_per_user, board_users FROM bench_seed WHERE id = 1 AND to_regclass('bench_seed') IS NOT NULL`,
      )
      .catch(() => ({ rows: [] }));
    const seeded = rows[0];
    const base = seeded
      ? { users: seeded.users, resultsPerUser: seeded.results_per_user, boardUsers: seeded.board_users }
      : DEFAULT_SIZE;
    return {
      users: flags.users ?? base.users,
      resultsPerUser: flags.resultsPerUser ?? base.resultsPerUser,
      boardUsers: flags.boardUsers ?? Math.max(flags.users ?? base.users, base.boardUsers),
    };
  } finally {
    await client.end();
  }
}

/** Longer than any test the benchmark's result bodies claim (500 characters of quote at 20 wpm, restarts: 5.4 min). */
const SPACING_MARGIN_MS = 10 * 60_000;

/**
 * Every run submits for the same users (the scenarios' ranges of `userRanges`), so a run started minutes after another
 * would have some refused for spacing (462): a new result may not end before the last one's end plus its own length.
 * Before the scenarios, a last result of the last 10 minutes (a previous run's) is moved back to 10 minutes ago.
 */
async function settleRecentResults(pool: pg.Pool): Promise<number> {
  const margin = Date.now() - SPACING_MARGIN_MS;
  const { rowCount } = await pool.query('update users set last_result_at = $1 where last_result_at > $1', [
    margin,
  ]);
  return rowCount ?? 0;
}

/** The environment of our server: production mode, OIDC against the bench issuer, limits raised, jobs off. */
function serverEnv(options: {
  port: number;
  databaseUrl: string;
  redisUrl: string;
  jwksUrl: string;
  configFile: string;
}): Record<string, string> {
  const unlimited = Object.fromEntries(
    Object.keys(RATE_LIMIT_CLASSES).map((id) => [id, { max: 1_000_000_000 }]),
  );
  return {
    NODE_ENV: 'production',
    MODE: 'production',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    AUTH_PROVIDER: 'oidc',
    OIDC_ISSUER: BENCH_ISSUER,
    OIDC_AUDIENCE: BENCH_AUDIENCE,
    OIDC_JWKS_URL: options.jwksUrl,
    SERVER_CONFIG_FILE: options.configFile,
    LOG_LEVEL: 'warn',
    // Every request comes from one address and each user submits once: the limits would measure themselves.
    RATE_LIMIT_GLOBAL_PER_MINUTE: '1000000000',
    RATE_LIMIT_OVERRIDES: JSON.stringify(unlimited),
    // The scheduled rebuild would land in the middle of a scenario; scenario 6 runs it on purpose instead.
    JOBS_ENABLED: 'false',
    // Scenario 12's players each come from an address of their own (X-Forwarded-For): one address may only hold so
    // many Tribe connections. Nothing else sends the header.
    TRUST_PROXY: 'true',
  };
}

async function startBaseline(
  dataDir: string,
  stack: { databaseUrl: string; redisUrl: string },
): Promise<ServerProcess> {
  const port = await freePort();
  return startServerProcess({
    name: 'baseline',
    script: resolve(__dirname, 'baseline/server.js'),
    url: `http://127.0.0.1:${port}`,
    readyPath: '/',
    env: { PORT: String(port), DATABASE_URL: stack.databaseUrl, REDIS_URL: stack.redisUrl },
    logFile: join(dataDir, 'logs', 'baseline.log'),
    // The profiler hook, inert until asked (scenario 1's floor is profiled with --profile).
    nodeArgs: ['-r', resolve(__dirname, 'lib/profiler-hook.js')],
  });
}

/** Stands in for the baseline when no scenario that compares with it runs (`--only 10`). */
function withoutBaseline(): ServerProcess {
  const refuse = () => Promise.reject(new Error('the baseline was not started for these scenarios'));
  return {
    name: 'baseline (not started)',
    pid: 0,
    url: 'http://127.0.0.1:0',
    ask: refuse,
    stop: () => Promise.resolve(),
  };
}

async function main(): Promise<void> {
  const args = argumentsOrUsage(parseRunArgs, USAGE);
  if (!args) return;
  const log = (line: string) => console.log(`[bench] ${line}`);
  const dataDir = benchDataDir();
  const loadBefore = loadavg();
  const stack = await startBenchStack(log);
  const issuer = new BenchIssuer();
  const servers: ServerProcess[] = [];
  let pool: pg.Pool | null = null;
  // The servers first (newest first), the stores last.
  const cleanUp = cleanUpOnce(
    () => [
      ...[...servers].reverse().map((server) => () => server.stop()),
      () => pool?.end(),
      () => issuer.stop(),
      () => stack.stop(),
    ],
    (e) => console.error(e.message),
  );
  // Ctrl-C (or a closed terminal) must not leave servers, PostgreSQL or Redis running: they are in process groups of
  // their own, so only this process gets the signal, and it stops them in order.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
  }
  const importScenario = () =>
    importOriginalScenario({
      databaseUrl: stack.databaseUrl,
      redisUrl: stack.redisUrl,
      dataDir,
      size: args.importSize,
      log,
    });
  try {
    if ([...args.only].every((id) => id === '9')) {
      // The import needs neither the seeded dataset nor the servers: it imports into a database of its own.
      const rows = [await importScenario()];
      const loadAfter = loadavg();
      const report = [
        `## Benchmark run ${new Date().toISOString()} (scenario 9 only)`,
        '',
        `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadBefore[0]?.toFixed(2)} ` +
          `before, ${loadAfter[0]?.toFixed(2)} after (1 min).`,
        '',
        renderTable(rows),
        '',
        'Targets:',
        renderTargets([importTarget(rows)]),
      ].join('\n');
      console.log(`\n${report}\n`);
      writeFileSync(join(dataDir, 'last-run.md'), `${report}\n`);
      return;
    }
    const size = await datasetSize(stack.databaseUrl, args.size);
    // Scenario 10 seeds its own account: run alone, it needs neither the dataset nor the baseline.
    // Scenario 12 races on an empty database: run alone (or with 9 and 10), it needs neither dataset nor baseline.
    const needsDataset = [...args.only].some((id) => !['9', '10', '12'].includes(id));
    if (needsDataset) {
      log(`dataset: ${size.users} users x ${size.resultsPerUser} results, ${size.boardUsers} board users`);
      const seeded = await seed({ ...size, databaseUrl: stack.databaseUrl, reset: false, jobs: 2, log });
      log(
        `dataset seeded in ${seeded.totalSeconds.toFixed(0)} s in total (this run: ${seeded.seconds.toFixed(1)} s)`,
      );
    } else {
      const db = createDatabase({ url: stack.databaseUrl, poolMax: 1 });
      try {
        for (const line of await migrateToLatest(db)) log(line);
      } finally {
        await db.destroy();
      }
    }

    await issuer.start();
    const configFile = join(dataDir, 'server-config.json');
    writeFileSync(configFile, JSON.stringify(SERVER_CONFIGURATION, null, 2));
    const profileDir = join(dataDir, 'profiles');
    if (args.profile) mkdirSync(profileDir, { recursive: true });

    const oursPort = await freePort();
    const env = serverEnv({
      port: oursPort,
      databaseUrl: stack.databaseUrl,
      redisUrl: stack.redisUrl,
      jwksUrl: issuer.url,
      configFile,
    });
    const oursScript = resolve(__dirname, '../src/main.js');
    const oursNodeArgs = [...scriptNodeFlags('start.sh'), '-r', resolve(__dirname, 'lib/profiler-hook.js')];
    const ours = await startServerProcess({
      name: 'our server',
      script: oursScript,
      url: `http://127.0.0.1:${oursPort}`,
      readyPath: '/',
      env: {
        ...env,
        ...(process.env.BENCH_HEAP_SNAPSHOT ? { BENCH_HEAP_SNAPSHOT: process.env.BENCH_HEAP_SNAPSHOT } : {}),
        ...(process.env.BENCH_SERVER_NODE_OPTIONS
          ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS }
          : {}),
      },
      logFile: join(dataDir, 'logs', 'server.log'),
      // Node's flags as `npm start` passes them; the hook is inert until asked (CPU profile, memory breakdown).
      nodeArgs: oursNodeArgs,
    });
    servers.push(ours);
    const baseline = needsDataset ? await startBaseline(dataDir, stack) : withoutBaseline();
    if (needsDataset) servers.push(baseline);
    log(`our server pid ${ours.pid} on ${ours.url}; baseline pid ${baseline.pid} on ${baseline.url}`);

    pool = new pg.Pool({ connectionString: stack.databaseUrl, max: 2 });
    // Scenario 6 restarts PostgreSQL: the idle connections it closes are dropped, not a crash.
    pool.on('error', () => undefined);
    const context: BenchContext = {
      size,
      issuer,
      pool,
      redisUrl: stack.redisUrl,
      servers: { ours, baseline },
      postgresPid: process.env.DATABASE_URL ? null : postmasterPid(dataDir),
      connections: args.connections,
      duration: args.duration,
      submitRequests: args.submitRequests,
      restartPostgres: stack.restartPostgres
        ? async () => {
            await stack.restartPostgres?.();
            // A new postmaster: its CPU is what the scenarios after the restart count.
            context.postgresPid = postmasterPid(dataDir);
          }
        : undefined,
      profiler: args.profile
        ? {
            start: async (server: ServerProcess) =>
              void (await server.ask('profile:start', 'profile:started')),
            stop: async (server: ServerProcess, name: string) =>
              void (await server.ask(
                `profile:stop:${join(profileDir, `scenario-${name}.cpuprofile`)}`,
                'profile:written',
              )),
          }
        : undefined,
      log,
    };
    const rows: ScenarioRow[] = [];
    const run = async (id: string, work: () => Promise<ScenarioRow | ScenarioRow[]>) => {
      if (!args.only.has(id)) return;
      const produced = await work();
      rows.push(...(Array.isArray(produced) ? produced : [produced]));
      log(`our server's memory after scenario ${id} (MB): ${await ours.ask('memory', 'memory:')}`);
    };
    // The rebuild first: it leaves the boards the read scenarios page through. Ours and the baseline alternate, so
    // both see the same machine load.
    const appEnv = loadEnv(env);
    const settled = await settleRecentResults(pool);
    if (settled > 0)
      log(`${settled} users' last result moved back to ${SPACING_MARGIN_MS / 60_000} minutes ago`);
    await run('6', () => snapshotScenario(context, appEnv));
    await run('1', () => submitScenario(context, args.rounds));
    await run('2', () => leaderboardPageScenario(context, 'ours'));
    await run('2', () => leaderboardPageScenario(context, 'baseline'));
    await run('3', () => leaderboardRankScenario(context));
    await run('4', () => profileScenario(context));
    await run('5', () => resultsReadScenario(context));
    await run('7', () => liveRanksScenario(context, appEnv));
    await run('9', importScenario);
    // After 1, 2 and 4: it runs at half the maxima they measured.
    await run('8', () => openLoopScenario(context, rows, args.openRate));
    await run('11', () => sequentialScenario(context));
    await run('12', () =>
      tribeScenario(context, {
        rooms: args.tribeRooms,
        serverEnv: env,
        script: oursScript,
        nodeArgs: oursNodeArgs,
        logDir: join(dataDir, 'logs'),
      }),
    );
    await run('10', () =>
      exportScenario(context, args.exportResults, {
        DATABASE_URL: stack.databaseUrl,
        REDIS_URL: stack.redisUrl,
      }),
    );

    if (process.env.BENCH_HEAP_SNAPSHOT) log(`heap snapshot: ${await ours.ask('heap:snapshot', 'heap:')}`);
    const loadAfter = loadavg();
    const report = [
      `## Benchmark run ${new Date().toISOString()}`,
      '',
      `Machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), load average ${loadBefore[0]?.toFixed(2)} ` +
        `before, ${loadAfter[0]?.toFixed(2)} after (1 min). ` +
        (needsDataset
          ? `Dataset: ${size.users} users x ${size.resultsPerUser} results, ${size.boardUsers} board users. `
          : 'No dataset (scenario 10 seeds its own account, 12 races on an empty database). ') +
        `${args.connections} connections; reads ${args.duration} s each; ` +
        `scenario 1: ${args.submitRequests} submissions per server.`,
      '',
      renderTable(rows),
      '',
      'Ours ÷ baseline (requests/s):',
      renderRatios(rows) || '- none (no scenario ran on both servers)',
      '',
      'Targets:',
      renderTargets(evaluateTargets(rows, args.connections)),
    ].join('\n');
    console.log(`\n${report}\n`);
    writeFileSync(join(dataDir, 'last-run.md'), `${report}\n`);
    writeFileSync(
      join(dataDir, 'last-run.json'),
      JSON.stringify({ size, args: { ...args, only: [...args.only] }, rows }, null, 2),
    );
    if (args.profile)
      log(
        `CPU profiles of our server per scenario: ${profileDir}/scenario-*.cpuprofile (npm run bench:profile)`,
      );
  } finally {
    await cleanUp();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
