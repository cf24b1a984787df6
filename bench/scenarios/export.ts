import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { createGunzip } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { LoadResult } from '../lib/load';
import { postgresCpuSeconds } from '../lib/postgres-cpu';
import { ProcessSampler } from '../lib/server-process';
import type { BenchContext, ScenarioRow } from './context';
import { scriptNodeFlags } from '../lib/node-flags';
import { freshInstance, peakRssMb } from './import-original';

/** The empty instance the exported account is imported into (beside the dataset and scenario 9's). */
const IMPORT_DATABASE = 'bench_account_import';
const IMPORT_REDIS_DB = 10;

/** The account the scenario exports (its own: the dataset's users hold 50 results each). */
const UID = 'bench-export-account';
const NAME = 'bench_export';
const CHART_POINTS = 30;

/**
 * The export account with `results` results, written in PostgreSQL (one statement): each a 30-second test with a
 * full chart (wpm, burst and error series of 30 points, as the client sends them), key statistics and a tag, so a
 * record weighs what a real one does (about 1 KB of NDJSON). Kept between runs; reseeded when the count differs.
 */
async function seedExportAccount(pool: pg.Pool, results: number, log: (line: string) => void): Promise<void> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM results WHERE uid = $1', [
    UID,
  ]);
  if (rows[0]?.n === results) return;
  const started = performance.now();
  await pool.query('DELETE FROM users WHERE uid = $1', [UID]);
  const now = Date.now();
  await pool.query(
    `INSERT INTO users (uid, name, email, added_at, time_typing, completed_tests, started_tests, xp)
     VALUES ($1, $2, $3, $4, 3600 * 300, $5, $5, 1000000)`,
    [UID, NAME, `${NAME}@bench.test`, now - results * 60_000, results],
  );
  await pool.query(
    `INSERT INTO tags (id, uid, name, created_at) VALUES ('benchexporttag00000000001', $1, 'bench', $2)`,
    [UID, now],
  );
  await pool.query(
    `INSERT INTO results (id, uid, timestamp, name, wpm, raw_wpm, acc, consistency, key_consistency, char_stats,
                          mode, mode2, language, test_duration, tags, restart_count, incomplete_test_seconds,
                          is_pb, xp, chart_data, key_spacing_stats, key_duration_stats)
     SELECT substr(md5($1 || k::text), 1, 24), $1, $2::bigint - ($3::int - k)::bigint * 60000, $4,
            w, w + 3.21, 96.55, 78.4, 61.2, ARRAY[(w * 2.5)::int, 3, 1, 0],
            CASE WHEN k % 4 = 0 THEN 'words' ELSE 'time' END, CASE WHEN k % 4 = 0 THEN '25' ELSE '30' END,
            'english', 30.02, ARRAY['benchexporttag00000000001'], k % 3, 1.5, k % 50 = 0, 12,
            jsonb_build_object(
              'wpm', to_jsonb(array_fill(round(w)::int, ARRAY[${CHART_POINTS}])),
              'burst', to_jsonb(array_fill(round(w * 1.1)::int, ARRAY[${CHART_POINTS}])),
              'err', to_jsonb(array_fill(k % 2, ARRAY[${CHART_POINTS}]))),
            jsonb_build_object('average', round((12000 / w)::numeric, 2), 'sd', 31.47),
            jsonb_build_object('average', 88.12, 'sd', 19.03)
     FROM (SELECT k, round((60 + (k % 70))::numeric + (k % 100) / 100.0, 2)::float8 AS w
           FROM generate_series(1, $3::int) AS k) AS g`,
    [UID, now, results, NAME],
  );
  await pool.query('VACUUM (ANALYZE) results');
  log(
    `scenario 10: seeded ${results} results for ${UID} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

interface Timing {
  records: number;
  bytes: number;
  firstByteMs: number;
  totalMs: number;
  status: number;
}

/** Counts lines in a stream of bytes. */
function lineCounter(): { write(chunk: Buffer): void; lines(): number } {
  let lines = 0;
  return {
    write(chunk) {
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines += 1;
    },
    lines: () => lines,
  };
}

/** Reads the whole body as a client does (decoding gzip), counting bytes on the wire and lines as they arrive. */
function download(url: string, token: string, gzip: boolean): Promise<Timing> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = get(
      url,
      { headers: { authorization: `Bearer ${token}`, 'accept-encoding': gzip ? 'gzip' : 'identity' } },
      (res) => {
        let bytes = 0;
        let firstByteMs = -1;
        const counter = lineCounter();
        res.on('data', (chunk: Buffer) => {
          if (firstByteMs < 0) firstByteMs = performance.now() - started;
          bytes += chunk.length;
        });
        const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
        body.on('data', (chunk: Buffer) => counter.write(chunk));
        body.once('error', reject);
        body.once('end', () =>
          resolve({
            // Lines minus the header and the trailer.
            records: counter.lines() - 2,
            bytes,
            firstByteMs,
            totalMs: performance.now() - started,
            status: res.statusCode ?? 0,
          }),
        );
      },
    );
    request.once('error', reject);
  });
}

function row(
  id: string,
  scenario: string,
  timing: Timing,
  rss: { before: number; max: number | null },
  cpu: number | null,
  postgres: number | null = null,
): ScenarioRow {
  const perSecond = timing.records / (timing.totalMs / 1000);
  const result: LoadResult = {
    requests: timing.records,
    requestsPerSecond: perSecond,
    p50: timing.firstByteMs,
    p99: timing.totalMs,
    errors: timing.status === 200 && timing.records > 0 ? 0 : 1,
    statuses: { [String(timing.status)]: 1 },
    errorSamples: {},
    rssMb: rss.max,
    cpuMsPerRequest: cpu === null ? null : (cpu * 1000) / Math.max(timing.records, 1),
    postgresCpuMsPerRequest: postgres === null ? null : (postgres * 1000) / Math.max(timing.records, 1),
  };
  return {
    id,
    scenario,
    server: 'ours',
    result,
    rssBeforeMb: rss.before,
    note:
      `requests/s = records/s; CPU ms/req = per record; p50 = first byte ${timing.firstByteMs.toFixed(0)} ms; p99 = whole export ` +
      `${(timing.totalMs / 1000).toFixed(2)} s; ${timing.records} records, ${(timing.bytes / 1e6).toFixed(1)} MB on the wire; ` +
      `RSS ${rss.before.toFixed(0)} MB before, ${rss.max?.toFixed(0) ?? 'n/a'} MB max; CPU per record: server ` +
      `${cpu === null ? 'n/a' : ((cpu * 1e6) / Math.max(timing.records, 1)).toFixed(1)} µs, PostgreSQL ` +
      `${postgres === null ? 'n/a' : ((postgres * 1e6) / Math.max(timing.records, 1)).toFixed(1)} µs`,
  };
}

/** Runs `work` while sampling `pid`'s RSS and CPU, and PostgreSQL's CPU. */
async function sampled<T>(pid: number, postgresPid: number | null, work: () => Promise<T>) {
  const before = (ProcessSampler.readKb(pid) ?? 0) / 1024;
  const sampler = new ProcessSampler(pid);
  const postgresBefore = postgresPid ? postgresCpuSeconds(postgresPid) : null;
  sampler.start();
  try {
    const value = await work();
    const usage = sampler.stop();
    const postgresAfter = postgresPid ? postgresCpuSeconds(postgresPid) : null;
    const postgres =
      postgresBefore === null || postgresAfter === null ? null : postgresAfter - postgresBefore;
    return { value, rss: { before, max: usage.rssMb }, cpu: usage.cpuSeconds, postgres };
  } catch (e) {
    sampler.stop();
    throw e;
  }
}

/** An operator command run to its end (`npm run cli -- <args>` with its Node flags); its exit code and output. */
async function runCli(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    [...scriptNodeFlags('cli.sh'), resolve(__dirname, '../../src/cli.js'), ...args],
    {
      env: { PATH: process.env.PATH ?? '', ...env, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  return { code, out };
}

/**
 * The target trusts the instance the file comes from, as an operator moving an account does first
 * (docs/account-files.md): `instances show` there, `instances trust` here. Without it the signed file is refused.
 */
async function trustSource(source: Record<string, string>, target: Record<string, string>): Promise<void> {
  const shown = await runCli(['instances', 'show'], source);
  const trust = /instances trust (\S+) --instance (\S+)/.exec(shown.out);
  if (shown.code !== 0 || !trust)
    throw new Error(`instances show failed (${shown.code}): ${shown.out.slice(-500)}`);
  const trusted = await runCli(['instances', 'trust', trust[1]!, '--instance', trust[2]!], target);
  if (trusted.code !== 0)
    throw new Error(`instances trust failed (${trusted.code}): ${trusted.out.slice(-500)}`);
}

/** The operator command, as a process of its own, writing a file; its RSS is sampled while it runs. */
async function cliExport(
  context: BenchContext,
  env: Record<string, string>,
  file: string,
): Promise<{ timing: Timing; rss: { before: number; max: number | null }; cpu: number | null }> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [
      ...scriptNodeFlags('cli.sh'),
      resolve(__dirname, '../../src/cli.js'),
      'users',
      'export',
      UID,
      '--out',
      file,
    ],
    { env: { PATH: process.env.PATH ?? '', ...env, LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  const sampler = new ProcessSampler(child.pid as number);
  sampler.start();
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  const usage = sampler.stop();
  const match = /exported \S+ \(\S+\): (\d+) records/.exec(out);
  if (code !== 0 || !match) context.log(`scenario 10: the CLI failed (${code}): ${out.slice(-500)}`);
  return {
    timing: {
      records: Number(match?.[1] ?? 0),
      bytes: 0,
      firstByteMs: 0,
      totalMs: performance.now() - started,
      status: code === 0 ? 200 : 500,
    },
    rss: { before: 0, max: usage.rssMb },
    cpu: usage.cpuSeconds,
  };
}

const number = (text: string) => Number(text.replace(/,/g, ''));

/**
 * The exported file imported into an empty instance by `npm run cli -- import account` (its Node flags, a process of
 * its own), as the second of the two commands that move an account. Records per second over the whole command
 * (boot, the scan of the file, the writes, the board rebuild) and results per second of the results' pass; the
 * command's peak RSS.
 */
async function cliImport(
  context: BenchContext,
  env: Record<string, string>,
  file: string,
): Promise<ScenarioRow> {
  const target = await freshInstance(env.DATABASE_URL!, env.REDIS_URL!, IMPORT_DATABASE, IMPORT_REDIS_DB);
  await trustSource(env, { DATABASE_URL: target.databaseUrl, REDIS_URL: target.redisUrl });
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [...scriptNodeFlags('cli.sh'), resolve(__dirname, '../../src/cli.js'), 'import', 'account', file],
    {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: target.databaseUrl,
        REDIS_URL: target.redisUrl,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  let peak = 0;
  const sampler = setInterval(() => {
    const mb = child.pid === undefined ? null : peakRssMb(child.pid);
    if (mb !== null) peak = Math.max(peak, mb);
  }, 200);
  const code = await new Promise<number | null>((done) => child.once('exit', done));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const rowOf = (name: string) =>
    new RegExp(
      `^${name}\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d.]+) s`,
      'm',
    ).exec(out);
  const results = rowOf('result');
  const total = rowOf('total');
  const scenario = 'CLI import account into an empty instance (process boot included)';
  if (code !== 0 || !results || !total) {
    context.log(`scenario 10: the import failed (${code}): ${(err + out).slice(-1500)}`);
    return {
      id: '10-import',
      scenario,
      server: 'ours',
      result: null,
      note: `the import failed (exit ${code})`,
    };
  }
  context.log(`scenario 10: ${out.trim()}`);
  const records = number(total[1]!);
  return {
    id: '10-import',
    scenario: `${scenario}, ${number(results[2]!)} results`,
    server: 'ours',
    result: null,
    seconds,
    note:
      `${Math.round(records / seconds)} records/s over the whole command (${records} records in ${seconds.toFixed(1)} s: ` +
      `boot, scan, writes, board rebuild); results ${Math.round(number(results[2]!) / Number(results[6]))}/s ` +
      `(${results[6]} s); peak RSS of the import ${peak.toFixed(0)} MB`,
  };
}

/**
 * Scenario 10 (issue 22): one account with `results` results exported through GET /users/export, plain and gzip,
 * and through `users export --out` (a process of its own, boot included), whose file is then imported into an empty
 * instance by `import account` (the account's move, timed with its peak RSS). Records per second, time to the first
 * byte, and the server's RSS before and at most during the export (flat: the export streams a page at a time).
 */
export async function exportScenario(
  context: BenchContext,
  results: number,
  cliEnv: Record<string, string>,
): Promise<ScenarioRow[]> {
  await seedExportAccount(context.pool, results, context.log);
  const server = context.servers.ours;
  const url = `${server.url}/users/export`;
  const token = context.issuer.token(UID);
  context.log(`scenario 10: GET /users/export of ${results} results (warm-up, then plain and gzip) ...`);
  await download(url, token, true);
  const rows: ScenarioRow[] = [];
  for (const gzip of [false, true]) {
    const run = await sampled(server.pid, context.postgresPid, () => download(url, token, gzip));
    rows.push(
      row(
        `10-http${gzip ? '-gzip' : ''}`,
        `GET /users/export, ${results} results${gzip ? ', gzip' : ''}`,
        run.value,
        run.rss,
        run.cpu,
        run.postgres,
      ),
    );
  }
  context.log(
    'scenario 10: npm run cli -- users export --out, then import account into an empty instance ...',
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-export-'));
  const file = join(dir, 'export.ndjson');
  let cli: Awaited<ReturnType<typeof cliExport>>;
  let imported: ScenarioRow;
  try {
    cli = await cliExport(context, cliEnv, file);
    imported = await cliImport(context, cliEnv, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const cliRow = row(
    '10-cli',
    `CLI users export --out, ${results} results (process boot included)`,
    cli.timing,
    cli.rss,
    cli.cpu,
  );
  cliRow.note = `requests/s = records/s, boot included; p99 = whole command ${(cli.timing.totalMs / 1000).toFixed(2)} s; CLI process RSS max ${cli.rss.max?.toFixed(0) ?? 'n/a'} MB`;
  delete cliRow.rssBeforeMb;
  // The CLI's own process: its RSS is in the note, not in the server RSS column.
  if (cliRow.result) cliRow.result.rssMb = null;
  rows.push(cliRow, imported);
  return rows;
}
