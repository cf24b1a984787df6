import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../../src/cli/run-cli';
import { AccountExportService } from '../../../src/modules/portability/export/account-export.service';
import { writeExportFile } from '../../../src/modules/portability/export/export-file';
import { createTestApp, type TestApp } from '../../support/test-app';
import {
  FULL_CONFIGURATION,
  fetchExport,
  parseExport,
  recordsOf,
  seedFullAccount,
  seedResults,
  type FullAccount,
} from './support';

/** Issue 22, item 2: `npm run cli -- users export <uidOrName> [--out FILE]`. */
describe('operator CLI: users export', () => {
  let t: TestApp;
  let env: NodeJS.ProcessEnv;
  let account: FullAccount;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp({ configuration: FULL_CONFIGURATION });
    env = { DATABASE_URL: t.stores.databaseUrl, REDIS_URL: t.stores.redisUrl, LOG_LEVEL: 'silent' };
    account = await seedFullAccount(t, 'MailRequest');
    await seedResults(t, account.uid, 1_234, 1_600_000_000_000);
    dir = mkdtempSync(join(tmpdir(), 'export-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  /** The seeded account's own results and the bulk ones. */
  const results = () => account.resultIds.length + 1_234;

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const data = new PassThrough();
    const chunks: Buffer[] = [];
    data.on('data', (c: Buffer) => chunks.push(c));
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), data }, env);
    return { code, out, err, data: Buffer.concat(chunks).toString('utf8') };
  }

  /** The export's lines without the header's `exportedAt` (each run takes its own snapshot). */
  const comparable = (text: string) => {
    const parsed = parseExport(text);
    return { header: { ...parsed.header, exportedAt: 0 }, records: parsed.records, end: parsed.end };
  };

  it('writes the same format as GET /users/export to a file, atomically, and prints a summary', async () => {
    const file = join(dir, 'by-uid.ndjson');
    const run = await cli('users', 'export', account.uid, '--out', file);
    expect(run.code).toBe(0);
    expect(run.err).toEqual([expect.stringMatching(/^target: /)]);
    expect(run.out).toEqual([
      expect.stringMatching(
        new RegExp(
          `^exported ${account.uid} \\(MailRequest\\): \\d+ records, ${results()} results, to ${file} in [\\d.]+ s$`,
        ),
      ) as string,
    ]);
    expect(run.data).toBe('');
    const text = readFileSync(file, 'utf8');
    const http = await fetchExport(t, await t.bearer(account.uid));
    expect(comparable(text)).toEqual(comparable(http.text));
    expect(recordsOf(parseExport(text), 'result')).toHaveLength(results());
    // Personal data: readable by the operator only. No temporary file is left beside it.
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('writes NDJSON alone to stdout (target and summary on stderr), finding the account by name in any case', async () => {
    const run = await cli('users', 'export', 'mailrequest');
    expect(run.code).toBe(0);
    expect(run.out).toEqual([]);
    expect(run.err).toEqual([
      expect.stringMatching(/^target: /),
      expect.stringMatching(
        new RegExp(`^exported ${account.uid} \\(MailRequest\\): .* to stdout in`),
      ) as string,
    ]);
    const parsed = parseExport(run.data);
    expect(parsed.header.uid).toBe(account.uid);
    expect(parsed.end?.counts.result).toBe(results());
  });

  it('names an unknown account and writes nothing (an existing file stays as it was)', async () => {
    const file = join(dir, 'kept.ndjson');
    writeFileSync(file, 'before\n');
    const run = await cli('users', 'export', 'ghost', '--out', file);
    expect(run.code).toBe(1);
    expect(run.err.slice(1)).toEqual(['User not found: ghost']);
    expect(readFileSync(file, 'utf8')).toBe('before\n');
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('leaves nothing behind when interrupted (Ctrl-C aborts the write): the old file stays', async () => {
    const file = join(dir, 'interrupted.ndjson');
    writeFileSync(file, 'before\n');
    const opened = await t.app.get(AccountExportService).open(account.uid);
    const interrupt = new AbortController();
    opened.stream.once('data', () => interrupt.abort(new Error('interrupted')));
    await expect(writeExportFile(opened.stream, file, interrupt.signal)).rejects.toThrow('interrupted');
    expect(readFileSync(file, 'utf8')).toBe('before\n');
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('replaces an existing file only with a complete export', async () => {
    const file = join(dir, 'replaced.ndjson');
    writeFileSync(file, 'old\n');
    expect((await cli('users', 'export', account.uid, '--out', file)).code).toBe(0);
    expect(parseExport(readFileSync(file, 'utf8')).end?.counts.account).toBe(1);
  });

  it('refuses bad arguments before connecting anywhere, with exit code 2', async () => {
    const unreachable = { DATABASE_URL: 'postgres://u:p@127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1' };
    for (const [argv, message] of [
      [['users', 'export'], "missing required argument 'uidOrName'"],
      [['users', 'export', 'a\tb'], 'not a uid or name'],
      [['users', 'export', account.uid, '--out', join(dir, 'missing', 'x.ndjson')], 'does not exist'],
      [['users', 'export', account.uid, '--out', dir], 'is a directory'],
      [['users', 'export', account.uid, '--out'], "option '--out <file>' argument missing"],
    ] as const) {
      const err: string[] = [];
      const started = performance.now();
      const code = await runCli([...argv], { out: () => undefined, err: (l) => err.push(l) }, unreachable);
      expect(performance.now() - started).toBeLessThan(1000);
      expect({ argv, code }).toEqual({ argv, code: 2 });
      expect(err.join('\n')).toContain(message);
      expect(err.join('\n')).not.toContain('target:');
    }
  });

  it('is listed in the help of the users group', async () => {
    const help = await cli('users', 'export', '--help');
    expect(help.code).toBe(0);
    expect(help.out.join('\n')).toMatch(/<uidOrName>[\s\S]*--out <file>/);
  });
});
