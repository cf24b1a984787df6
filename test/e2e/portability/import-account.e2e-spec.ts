import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runCli } from '../../../src/cli/run-cli';
import { createUser } from '../../support/factories';
import { redisEnvOf } from '../../support/stores';
import { createTestApp, type TestApp } from '../../support/test-app';
import {
  DAY,
  FULL_CONFIGURATION,
  parseExport,
  seedFullAccount,
  trustInstance,
  type FullAccount,
} from './support';

/** Issue 22, item 3: `import account <file>`, its refusals, reruns and reports (the round trip is its own file). */
describe('import account <file>', () => {
  let source: TestApp;
  let target: TestApp;
  let dir: string;

  beforeAll(async () => {
    // The source's clock a day behind: its results (the clock moves on with each) are not in the CLI's future.
    [source, target] = await Promise.all([
      createTestApp({ configuration: FULL_CONFIGURATION, now: Date.now() - DAY }),
      createTestApp({ configuration: FULL_CONFIGURATION }),
    ]);
    dir = mkdtempSync(join(tmpdir(), 'import-account-'));
    // The source's files import as they are (the trusted path); an edited one only with --untrusted.
    await trustInstance(source, target);
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([source?.close(), target?.close()]);
  });

  async function cli(t: TestApp, ...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const env = { DATABASE_URL: t.stores.databaseUrl, ...redisEnvOf(t.stores), LOG_LEVEL: 'silent' };
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const importing = (...argv: string[]) => cli(target, 'import', 'account', ...argv);

  /** An account of the source instance and its export file (`users export`). */
  async function exported(name: string): Promise<{ account: FullAccount; file: string; text: string }> {
    const account = await seedFullAccount(source, name);
    const file = join(dir, `${name}.ndjson`);
    expect((await cli(source, 'users', 'export', account.uid, '--out', file)).code).toBe(0);
    return { account, file, text: readFileSync(file, 'utf8') };
  }
  /** A summary row: read, imported, skipped, rejected, adjusted. */
  const row = (out: string, collection: string) =>
    out
      .split('\n')
      .find((l) => l.startsWith(`${collection} `))
      ?.trim()
      .split(/\s+/)
      .slice(1, 6)
      .map(Number);
  const countOf = async (table: 'users' | 'results' | 'tags', uid: string) =>
    Number(
      (
        await target.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('uid', '=', uid)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const write = (name: string, content: string | Buffer) => {
    const path = join(dir, name);
    writeFileSync(path, content);
    return path;
  };

  it('imports an account with its summary table, and a rerun imports nothing new', async () => {
    const { account, file } = await exported('Mover1');
    const rejects = join(dir, 'mover1-rejects.ndjson');
    const first = await importing(file, '--rejects', rejects);
    expect(first.code).toBe(0);
    expect(first.err).toContain(`importing account ${account.uid} (Mover1) from ${file}`);
    expect(row(first.out, 'account')).toEqual([1, 1, 0, 0, 0]);
    expect(row(first.out, 'result')).toEqual([3, 3, 0, 0, 0]);
    expect(row(first.out, 'resultReview')).toEqual([1, 1, 0, 0, 0]);
    // Neither the friend nor the stranger is here: both connections stay behind, counted.
    expect(row(first.out, 'connection')).toEqual([2, 0, 2, 0, 0]);
    expect(first.out).toContain('connection: 2 not imported: the other user is not on this instance');
    expect(row(first.out, 'apeKey')).toEqual([1, 0, 1, 0, 0]);
    expect(first.out).toContain(`account ${account.uid} (Mover1): 3 of the file's 3 results here`);
    expect(first.out).toMatch(/^all-time leaderboards rebuilt/m);
    expect(readFileSync(rejects, 'utf8')).toBe('');
    expect(await countOf('results', account.uid)).toBe(3);
    // The user's rating counts in the quote's aggregate here, as a rating made here does.
    const rating = await target.request('GET', '/quotes/rating', {
      query: { language: 'english', quoteId: '7' },
      auth: await target.bearer(account.uid),
    });
    expect(rating.body.data).toMatchObject({ ratings: 1, totalRating: 4 });

    const rerun = await importing(file);
    expect(rerun.code).toBe(0);
    expect(rerun.err).toContain('already here: completing it');
    const rows = rerun.out.split('\n').filter((l) => /^[a-zA-Z]+ +\d/.test(l));
    expect(rows.length).toBeGreaterThan(8);
    for (const line of rows) expect(line.trim().split(/\s+/)[2]).toBe('0');
    expect(row(rerun.out, 'result')).toEqual([3, 0, 3, 0, 0]);
    expect(await countOf('results', account.uid)).toBe(3);
    expect(
      (
        await target.request('GET', '/quotes/rating', {
          query: { language: 'english', quoteId: '7' },
          auth: await target.bearer(account.uid),
        })
      ).body.data,
    ).toMatchObject({ ratings: 1, totalRating: 4 });
  });

  it('reads a gzip-compressed export by its magic bytes, whatever the file is called', async () => {
    const { account, text } = await exported('Zipped1');
    const run = await importing(write('zipped1.ndjson', gzipSync(text)));
    expect(run.code).toBe(0);
    expect(row(run.out, 'result')).toEqual([3, 3, 0, 0, 0]);
    expect(await countOf('tags', account.uid)).toBe(1);
  });

  it('--dry-run reads and checks everything, shows the same table and writes nothing', async () => {
    const { account, file } = await exported('DryRun1');
    const run = await importing(file, '--dry-run');
    expect(run.code).toBe(0);
    expect(row(run.out, 'account')).toEqual([1, 1, 0, 0, 0]);
    expect(row(run.out, 'result')).toEqual([3, 3, 0, 0, 0]);
    expect(run.out).toContain('dry run: nothing written, nothing rebuilt');
    expect(await countOf('users', account.uid)).toBe(0);
  });

  it('refuses a file cut off before its end line, plain or compressed, and writes nothing', async () => {
    const { account, text } = await exported('CutOff1');
    const lines = text.split('\n');
    const cut = lines.slice(0, -3).join('\n');
    for (const [name, content] of [
      ['cut.ndjson', `${cut}\n`],
      ['cut-mid-line.ndjson', cut.slice(0, -10)],
      ['cut.ndjson.gz', gzipSync(`${cut}\n`)],
    ] as const) {
      const run = await importing(write(name, content));
      expect({ name, code: run.code }).toEqual({ name, code: 1 });
      expect(run.err).toContain('the file ends without its end line: the export was cut off');
    }
    const gz = gzipSync(text);
    const run = await importing(write('cut-gzip.gz', gz.subarray(0, gz.length - 20)));
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/the compressed file is cut off or damaged|ends without its end line/);
    // A record more or less than the end line counts: damaged.
    const missing = [...lines.slice(0, 3), ...lines.slice(4)].join('\n');
    const counted = await importing(write('missing-record.ndjson', missing));
    expect(counted.code).toBe(1);
    expect(counted.err).toMatch(
      /does not match its end line \(0 leaderboardMemory records where the end line counts 1/,
    );
    expect(await countOf('users', account.uid)).toBe(0);
  });

  it('refuses a file of another format or of a newer version, and a missing file before it connects', async () => {
    const { text } = await exported('Versions1');
    const [head, ...rest] = text.split('\n');
    const header = JSON.parse(head!) as Record<string, unknown>;
    const newer = await importing(
      write('v2.ndjson', [JSON.stringify({ ...header, version: 2 }), ...rest].join('\n')),
    );
    expect(newer.code).toBe(1);
    expect(newer.err).toContain('the file is format version 2; this instance reads version 1');
    const other = await importing(write('other.ndjson', '{"hello":"world"}\n'));
    expect(other.code).toBe(1);
    expect(other.err).toContain('not an account export');
    const absent = await importing(join(dir, 'nowhere.ndjson'));
    expect(absent.code).toBe(2);
    expect(absent.err).toContain('does not exist');
  });

  it('refuses a uid, a name or an address taken here by another account; --uid and --name choose others', async () => {
    const { account, file } = await exported('Clash1');
    await createUser(target.db, { uid: account.uid, name: 'SomeoneElse1', email: 'else1@example.test' });
    const uidTaken = await importing(file);
    expect(uidTaken.code).toBe(1);
    expect(uidTaken.err).toContain(`the uid ${account.uid} is taken here by another account (SomeoneElse1)`);

    const other = await createUser(target.db, { name: 'Clash1x', email: 'Clash1@example.test' });
    const addressTaken = await importing(file, '--uid', 'moved-clash-1');
    expect(addressTaken.code).toBe(1);
    expect(addressTaken.err).toContain(`the email address of Clash1 is used here by account ${other.uid}`);
    await target.db.deleteFrom('users').where('uid', '=', other.uid).execute();

    await createUser(target.db, { name: 'clash1', email: 'clash1-other@example.test' });
    const nameTaken = await importing(file, '--uid', 'moved-clash-1');
    expect(nameTaken.code).toBe(1);
    expect(nameTaken.err).toContain('the name Clash1 is taken here');
    expect(await countOf('users', 'moved-clash-1')).toBe(0);

    const moved = await importing(file, '--uid', 'moved-clash-1', '--name', 'Clash1b');
    expect(moved.code).toBe(0);
    expect(moved.out).toContain("account moved-clash-1 (Clash1b): 3 of the file's 3 results here");
    const results = await target.request<{ data: { uid: string; name: string }[] }>('GET', '/results', {
      auth: await target.bearer('moved-clash-1'),
    });
    expect(results.body.data).toHaveLength(3);
    expect(results.body.data.every((r) => r.uid === 'moved-clash-1')).toBe(true);
    // Nothing of the file landed on the account that holds its uid here.
    expect(await countOf('results', account.uid)).toBe(0);
  });

  it('completes an account whose import stopped after its user batch (the same command again)', async () => {
    const { account, file } = await exported('Stopped1');
    expect((await importing(file)).code).toBe(0);
    // What a run killed after the account's transaction leaves: the account and its nested rows, no results yet.
    await target.db.deleteFrom('results').where('uid', '=', account.uid).execute();
    await target.db.deleteFrom('result_reviews').where('uid', '=', account.uid).execute();
    const again = await importing(file);
    expect(again.code).toBe(0);
    expect(row(again.out, 'account')).toEqual([1, 0, 1, 0, 0]);
    expect(row(again.out, 'result')).toEqual([3, 3, 0, 0, 0]);
    expect(row(again.out, 'resultReview')).toEqual([1, 1, 0, 0, 0]);
    expect(again.out).toContain(`account ${account.uid} (Stopped1): 3 of the file's 3 results here`);
  });

  it('reports a damaged record and a record type it does not know in the rejects file, and imports the rest', async () => {
    const { account, text } = await exported('Damaged1');
    const parsed = parseExport(text);
    // Edited with its signature line kept at the end (which no longer matches).
    const lines = [...parsed.lines];
    const signature = text.trimEnd().split('\n').at(-1)!;
    const end = parsed.end!;
    const resultLine = lines.findIndex((l) => l.startsWith('{"type":"result"'));
    const result = JSON.parse(lines[resultLine]!) as { data: Record<string, unknown> };
    lines[resultLine] = JSON.stringify({ type: 'result', data: { ...result.data, wpm: 999 } });
    const future = JSON.stringify({ type: 'futureThing', data: { id: 'f1' } });
    const counts = { ...end.counts, futureThing: 1 };
    const edited = [
      ...lines.slice(0, -1),
      future,
      JSON.stringify({ type: 'end', data: { records: end.records + 1, counts } }),
      signature,
    ];
    const rejects = join(dir, 'damaged-rejects.ndjson');
    const damaged = write('damaged.ndjson', `${edited.join('\n')}\n`);
    const refused = await importing(damaged);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('the file is not trusted here: the file changed since it was signed');
    const run = await importing(damaged, '--untrusted', '--rejects', rejects);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/^import path: untrusted \(the file changed since it was signed/m);
    // The two others are held (a board's mode; the 270 wpm one above its ceiling too), each listed.
    expect(row(run.out, 'result')).toEqual([3, 2, 0, 1, 2]);
    expect(row(run.out, 'unknown')).toEqual([1, 0, 0, 1, 0]);
    const reported = readFileSync(rejects, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(reported.filter((r) => r.document !== undefined || r.collection === 'unknown')).toEqual([
      expect.objectContaining({
        collection: 'result',
        _id: result.data.id,
        reason: '"wpm" must not be greater than 420',
      }),
      expect.objectContaining({
        collection: 'unknown',
        _id: 'f1',
        reason: 'record type futureThing is not known to this instance (written by a newer one?)',
      }),
    ]);
    expect(run.out).toContain(`account ${account.uid} (Damaged1): 2 of the file's 3 results here`);
    expect(await countOf('results', account.uid)).toBe(2);
  });
});
