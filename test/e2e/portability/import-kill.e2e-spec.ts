import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { writeSyntheticDump } from '../../../generators/synthetic-dump';
import { runCli } from '../../../src/cli/run-cli';
import { createTestStores, type TestStores } from '../../support/stores';

const ROOT = resolve(__dirname, '../../..');
const USERS = 2_000;
const RESULTS_PER_USER = 25;

async function counts(stores: TestStores) {
  const client = new Client({ connectionString: stores.databaseUrl });
  await client.connect();
  try {
    const one = async (sql: string) => Number((await client.query<{ n: string }>(sql)).rows[0]?.n);
    return {
      users: await one('SELECT count(*) AS n FROM users'),
      results: await one('SELECT count(*) AS n FROM results'),
      distinctResults: await one('SELECT count(DISTINCT id) AS n FROM results'),
      personalBests: await one('SELECT count(*) AS n FROM personal_bests'),
      tags: await one('SELECT count(*) AS n FROM tags'),
      configs: await one('SELECT count(*) AS n FROM user_configs'),
      apeKeys: await one('SELECT count(*) AS n FROM ape_keys'),
      orphans: await one(
        'SELECT count(*) AS n FROM results r WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.uid = r.uid)',
      ),
    };
  } finally {
    await client.end();
  }
}

describe('import original: killed with SIGKILL in the middle, run again, every document present once', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'original-kill-'));
    await writeSyntheticDump(dir, { users: USERS, resultsPerUser: RESULTS_PER_USER });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('finishes on the rerun with exactly the dump in the database', async () => {
    const stores = await createTestStores();
    const env = { DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redisUrl, LOG_LEVEL: 'silent' };
    // The CLI in a child process (our sources, compiled on load), killed once it is writing results.
    const child = spawn(
      process.execPath,
      [
        '--require',
        resolve(ROOT, 'test/support/ts-register.js'),
        resolve(ROOT, 'src/cli.ts'),
        'import',
        'original',
        dir,
      ],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
      child.once('exit', (code, signal) => r({ code, signal })),
    );
    const client = new Client({ connectionString: stores.databaseUrl });
    await client.connect();
    try {
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const deadline = Date.now() + 60_000;
      // Killed once some results are committed and the rest are not.
      for (;;) {
        const n = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM results')).rows[0]?.n);
        if (n >= 5_000) break;
        if (child.exitCode !== null || Date.now() > deadline)
          throw new Error(`the import did not get going: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      child.kill('SIGKILL');
      expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
    } finally {
      await client.end();
    }
    const partial = await counts(stores);
    expect(partial.users).toBe(USERS);
    expect(partial.results).toBeLessThan(USERS * RESULTS_PER_USER);

    const out: string[] = [];
    const code = await runCli(
      ['import', 'original', dir],
      { out: (l) => out.push(l), err: () => undefined },
      env,
    );
    expect(code).toBe(0);
    const table = out.join('\n');
    const results = /^results\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)\s+([\d,]+)/m.exec(table);
    expect(results?.slice(1).map((n) => Number(n.replace(/,/g, '')))).toEqual([
      USERS * RESULTS_PER_USER,
      USERS * RESULTS_PER_USER - partial.results,
      partial.results,
      0,
    ]);
    expect(await counts(stores)).toEqual({
      users: USERS,
      results: USERS * RESULTS_PER_USER,
      distinctResults: USERS * RESULTS_PER_USER,
      personalBests: USERS * 3,
      tags: USERS,
      configs: USERS / 2,
      apeKeys: USERS / 10,
      orphans: 0,
    });
  }, 120_000);
});
