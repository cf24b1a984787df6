import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { runCli } from '../../../src/cli/run-cli';
import { originalDatabase, writeDump, type DumpFormat } from '../../support/original-dump';
import { createTestStores, type TestStores } from '../../support/stores';

/** Every table the import writes, with the columns that do not depend on when it ran. */
const TABLES: Record<string, string> = {
  users: '*',
  personal_bests: '*',
  tags: '*',
  tag_personal_bests: '*',
  custom_themes: '*',
  inbox_mail: '*',
  result_filter_presets: '*',
  test_activity: '*',
  user_permissions: 'uid, permission',
  user_quote_ratings: '*',
  results: '*',
  user_configs: '*',
  presets: '*',
  connections: '*',
  ape_keys: 'id, uid, name, enabled, hash_scheme, created_on, modified_on, last_used_on',
  blocklist: '*',
  new_quotes: '*',
  quote_ratings: '*',
  quote_reports: '*',
  psas: '*',
};

async function contents(stores: TestStores): Promise<Record<string, unknown[]>> {
  const client = new Client({ connectionString: stores.databaseUrl });
  await client.connect();
  try {
    const out: Record<string, unknown[]> = {};
    for (const [table, columns] of Object.entries(TABLES)) {
      const rows = await client.query(`SELECT ${columns} FROM ${table}`);
      out[table] = rows.rows.map((r) => JSON.stringify(r)).sort();
    }
    return out;
  } finally {
    await client.end();
  }
}

/** The summary table without its time column. */
const table = (out: string) =>
  out
    .split('\n')
    .filter((l) => /^\S+\s+\d/.test(l))
    .map((l) => l.trim().split(/\s+/).slice(0, 6).join(' '));

describe('import original: every dump format gives the same data; reruns and dry runs', () => {
  let dir: string;
  const now = Date.now();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'original-formats-'));
    for (const format of ['bson', 'bson.gz', 'json-relaxed', 'json-canonical'] as const)
      await writeDump(join(dir, format), originalDatabase({ now }), format);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function importInto(stores: TestStores, format: DumpFormat, ...flags: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['import', 'original', join(dir, format), ...flags],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      { DATABASE_URL: stores.databaseUrl, REDIS_URL: stores.redisUrl, LOG_LEVEL: 'silent' },
    );
    expect({ code, err: err.filter((l) => /stopped|Error/.test(l)) }).toEqual({ code: 0, err: [] });
    return out.join('\n');
  }

  it('mongodump (.bson, .bson.gz) and mongoexport (relaxed and canonical) import to the same rows', async () => {
    const reference = await createTestStores();
    const summary = table(await importInto(reference, 'bson'));
    const expected = await contents(reference);
    expect(expected.results).toHaveLength(6);
    expect(expected.users).toHaveLength(6);
    for (const format of ['bson.gz', 'json-relaxed', 'json-canonical'] as const) {
      const stores = await createTestStores();
      expect(table(await importInto(stores, format))).toEqual(summary);
      expect(await contents(stores)).toEqual(expected);
    }
  });

  it('a rerun imports nothing new and counts everything as skipped; the data stays as it was', async () => {
    const stores = await createTestStores();
    const first = table(await importInto(stores, 'bson'));
    const before = await contents(stores);
    const second = table(await importInto(stores, 'bson'));
    expect(await contents(stores)).toEqual(before);
    expect(second).toHaveLength(first.length);
    for (const [i, line] of second.entries()) {
      const [name, , imported, skipped, rejected] = line.split(' ');
      const [, , firstImported, , firstRejected] = (first[i] as string).split(' ');
      // What the first run imported is skipped; what it refused is refused again (and listed again).
      expect({ name, imported, skipped, rejected }).toEqual({
        name,
        imported: '0',
        skipped: firstImported,
        rejected: firstRejected,
      });
    }
  });

  it('--dry-run reads, maps and validates everything, writes nothing, and prints the same summary', async () => {
    const real = table(await importInto(await createTestStores(), 'bson'));
    const stores = await createTestStores();
    const dry = await importInto(stores, 'bson', '--dry-run');
    expect(table(dry)).toEqual(real);
    expect(dry).toContain('dry run: nothing written, nothing rebuilt');
    const after = await contents(stores);
    for (const [name, rows] of Object.entries(after)) expect({ name, rows }).toEqual({ name, rows: [] });
  });
});
