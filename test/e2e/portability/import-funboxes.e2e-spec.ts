import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId } from 'bson';
import { runCli } from '../../../src/cli/run-cli';
import { FUNBOXES } from '../../../src/modules/results/domain/funboxes';
import { RETIRED_FUNBOXES } from '../../../src/modules/portability/import/live-rules';
import { writeDump, type Doc } from '../../support/original-dump';
import { createTestApp, type TestApp } from '../../support/test-app';

/**
 * The original platform's own funbox list (its packages/funbox/src/list.ts, 48 names), as its client names them in a
 * result: capitals and all. Every one of them, alone, is a result the original client could send.
 */
const ORIGINAL_FUNBOXES = [
  '58008',
  'ALL_CAPS',
  'IPv4',
  'IPv6',
  'arrows',
  'ascii',
  'asl',
  'backwards',
  'binary',
  'capitals',
  'choo_choo',
  'crt',
  'ddoouubblleedd',
  'earthquake',
  'gibberish',
  'hexadecimal',
  'instant_messaging',
  'layout_mirror',
  'layoutfluid',
  'memory',
  'mirror',
  'morse',
  'nausea',
  'no_quit',
  'nospace',
  'plus_one',
  'plus_three',
  'plus_two',
  'plus_zero',
  'poetry',
  'polyglot',
  'pseudolang',
  'rAnDoMcAsE',
  'read_ahead',
  'read_ahead_easy',
  'read_ahead_hard',
  'rot13',
  'round_round_baby',
  'sPoNgEcAsE',
  'simon_says',
  'space_balls',
  'specials',
  'tts',
  'underscore_spaces',
  'upside_down',
  'weakspot',
  'wikipedia',
  'zipf',
];

/** Issue 29, item 4: every funbox of the original imports, by the live route's own list. */
describe('import original: a result with any funbox of the original imports', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    t = await createTestApp();
    dir = await mkdtemp(join(tmpdir(), 'original-funboxes-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('knows the same funboxes as the original, no more and no fewer', () => {
    expect(Object.keys(FUNBOXES).sort()).toEqual([...ORIGINAL_FUNBOXES].sort());
  });

  it('imports a result per funbox of the original (and per retired name) with none rejected', async () => {
    const names = [...ORIGINAL_FUNBOXES, ...RETIRED_FUNBOXES];
    const user: Doc = {
      _id: new ObjectId(),
      uid: 'uid-funboxes',
      name: 'funboxes',
      addedAt: 1_600_000_000_000,
    };
    const results: Doc[] = names.map((name, i) => ({
      _id: new ObjectId(`66a${i.toString(16).padStart(21, '0')}`),
      uid: 'uid-funboxes',
      ...{ mode: 'time', mode2: '30', testDuration: 30, timestamp: 1_700_000_000_000 + i * 60_000 },
      ...{ wpm: 70, rawWpm: 72, acc: 96, consistency: 75, charStats: [170, 3, 0, 1], language: 'english' },
      // As the original stores it: a list today, `a#b` text in its oldest results.
      funbox: i % 2 === 0 ? [name] : name,
    }));
    // Two together, as the client allows them (a capitalisation change with a visual one).
    results.push({
      ...results[0]!,
      _id: new ObjectId('66b000000000000000000001'),
      funbox: 'rAnDoMcAsE#mirror',
    });
    await writeDump(join(dir, 'dump'), { users: [user], results }, 'bson');
    const rejects = join(dir, 'rejects.ndjson');
    const env = { DATABASE_URL: t.stores.databaseUrl, REDIS_URL: t.stores.redisUrl, LOG_LEVEL: 'silent' };
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['import', 'original', join(dir, 'dump'), '--rejects', rejects],
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      env,
    );
    expect({ code, err: err.filter((l) => /Error|stopped/.test(l)) }).toEqual({ code: 0, err: [] });
    expect(await readFile(rejects, 'utf8')).toBe('');
    const row = out
      .join('\n')
      .split('\n')
      .find((l) => l.startsWith('results '))
      ?.trim()
      .split(/\s+/)
      .slice(0, 5);
    expect(row).toEqual(['results', String(results.length), String(results.length), '0', '0']);
    const stored = await t.db
      .selectFrom('results')
      .select(['funbox'])
      .where('uid', '=', 'uid-funboxes')
      .execute();
    const kept = stored.map((r) => r.funbox.join('#')).sort();
    expect(kept).toEqual([...names, 'rAnDoMcAsE#mirror'].sort());
  });
});
