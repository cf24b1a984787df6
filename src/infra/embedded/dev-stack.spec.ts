import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

// The embedded PostgreSQL's binaries come from an ES-module-only package that jest's workers cannot load (only the
// global setup can), so the stack runs in a child Node process, on our TypeScript through the tests' swc hook.
const CHILD = `
const { Client } = require('pg');
const { startDevStack } = require(${JSON.stringify(resolve(__dirname, 'dev-stack.ts'))});
const query = async (url, text) => {
  const client = new Client({ connectionString: url });
  await client.connect();
  try { return (await client.query(text)).rows; } finally { await client.end(); }
};
const startedAt = async (url) => (await query(url, 'SELECT pg_postmaster_start_time() AS at'))[0].at.getTime();
(async () => {
  const stack = await startDevStack({ dataDir: process.argv[1], publish: true });
  try {
    const url = stack.databaseUrl;
    await query(url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');
    const before = await startedAt(url);
    const attached = await startDevStack({ dataDir: process.argv[1] });
    await stack.restartPostgres();
    console.log(JSON.stringify({
      sameUrl: attached.databaseUrl === url,
      attachedCanRestart: attached.restartPostgres !== undefined,
      restarted: (await startedAt(url)) > before,
      kept: await query(url, 'SELECT n FROM kept'),
    }));
  } finally {
    await stack.stop();
  }
})().catch((e) => { console.error(e); process.exit(1); });
`;

describe('dev stack PostgreSQL restart (the benchmark measures the first build after one)', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'dev-stack-'));
    // Reachable by the postgres user when the tests run as root.
    chmodSync(root, 0o755);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('restarts on the same URL with the data kept, and only for the process that started it', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['-r', resolve(__dirname, '../../../test/support/ts-register.js'), '-e', CHILD, root],
      { timeout: 110_000 },
    );
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '')).toEqual({
      sameUrl: true,
      attachedCanRestart: false,
      restarted: true,
      kept: [{ n: 42 }],
    });
  }, 120_000);
});
