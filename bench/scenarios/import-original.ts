import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import Redis from 'ioredis';
import { createDatabase } from '../../src/infra/database/database';
import { migrateToLatest } from '../../src/infra/database/migrator';
import { writeSyntheticDump, type SyntheticDumpSize } from '../../generators/synthetic-dump';
import { scriptNodeFlags } from '../lib/node-flags';
import type { ScenarioRow } from './context';

const DATABASE = 'bench_import';
/** A Redis database of its own, so the import's daily boards do not mix with the seeded dataset's. */
const REDIS_DB = 9;

/** Peak RSS of a process (VmHWM, kB → MB) from /proc; null where there is no /proc. */
export function peakRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /VmHWM:\s+(\d+) kB/.exec(status);
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * An empty instance beside the dataset for an import to write into: the database `name` (dropped first, then
 * migrated) on the server of `databaseUrl`, and the Redis logical database `redisDb` (flushed).
 */
export async function freshInstance(
  databaseUrl: string,
  redisUrl: string,
  name: string,
  redisDb: number,
): Promise<{ databaseUrl: string; redisUrl: string }> {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const fresh = withDatabase(databaseUrl, name);
  const db = createDatabase({ url: fresh, poolMax: 1 });
  await migrateToLatest(db).finally(() => db.destroy());
  const freshRedis = `${redisUrl.replace(/\/\d+$/, '')}/${redisDb}`;
  const redis = new Redis(freshRedis);
  await redis.flushdb();
  await redis.quit();
  return { databaseUrl: fresh, redisUrl: freshRedis };
}

const number = (text: string) => Number(text.replace(/,/g, ''));

/**
 * Scenario 9: the original platform's dump imported into an empty instance by the operator CLI, as an operator runs
 * it (`npm run cli -- import original <dir>`: its Node flags, a process of its own). The dump (mongodump .bson, written once into
 * the bench data directory and reused while its size matches) has `users` accounts and `resultsPerUser` results
 * each. Reports results/s (results imported ÷ the results collection's time), the whole import's time including the
 * board rebuild, and the CLI's peak RSS. The database is a fresh one beside the seeded dataset.
 */
export async function importOriginalScenario(options: {
  databaseUrl: string;
  redisUrl: string;
  dataDir: string;
  size: SyntheticDumpSize;
  log: (line: string) => void;
}): Promise<ScenarioRow> {
  const { size, log } = options;
  const dir = join(options.dataDir, 'original-dump');
  const sizeFile = join(dir, 'dump-size.txt');
  if (!existsSync(sizeFile) || readFileSync(sizeFile, 'utf8') !== JSON.stringify(size)) {
    log(`scenario 9: writing the dump (${size.users} users x ${size.resultsPerUser} results) to ${dir} ...`);
    const started = performance.now();
    await writeSyntheticDump(dir, size);
    log(`scenario 9: dump written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }

  const { databaseUrl, redisUrl } = await freshInstance(
    options.databaseUrl,
    options.redisUrl,
    DATABASE,
    REDIS_DB,
  );

  log('scenario 9: importing ...');
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...scriptNodeFlags('cli.sh'), resolve(__dirname, '../../src/cli.js'), 'import', 'original', dir],
    {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    err += c.toString();
    for (const line of c.toString().split('\n')) if (line.trim()) log(`scenario 9: ${line.trim()}`);
  });
  let peak = 0;
  const sampler = setInterval(() => {
    const mb = child.pid === undefined ? null : peakRssMb(child.pid);
    if (mb !== null) peak = Math.max(peak, mb);
  }, 200);
  const code = await new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  if (code !== 0) throw new Error(`the import exited with ${code}: ${err.slice(-2000)}`);

  const row = (name: string) =>
    new RegExp(
      `^${name}\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d.]+) s`,
      'm',
    ).exec(out);
  const results = row('results');
  const users = row('users');
  if (!results || !users) throw new Error(`no summary in the import's output: ${out}`);
  const resultsPerSecond = number(results[2] as string) / Number(results[6]);
  const usersPerSecond = number(users[2] as string) / Number(users[6]);
  const rebuild = /all-time leaderboards rebuilt: .*/.exec(out)?.[0] ?? '';
  log(`scenario 9: ${out.trim()}`);
  return {
    id: '9',
    scenario: `import of the original's dump: ${size.users} users, ${size.users * size.resultsPerUser} results`,
    server: 'ours',
    result: null,
    seconds,
    importFigures: { resultsPerSecond, peakRssMb: peak },
    note:
      `results ${Math.round(resultsPerSecond)}/s (${results[6]} s), users with their nested data ` +
      `${Math.round(usersPerSecond)}/s (${users[6]} s), peak RSS of the import ${peak.toFixed(0)} MB; ${rebuild}`,
  };
}
