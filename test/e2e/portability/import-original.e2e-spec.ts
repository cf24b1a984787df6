import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/run-cli';
import { formatApeKey } from '../../../src/common/auth/ape-key-authenticator';
import {
  APE_KEY_ID,
  APE_KEY_SECRET,
  DISABLED_KEY_ID,
  DISABLED_KEY_SECRET,
  originalDatabase,
  writeDump,
} from '../../support/original-dump';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('import original <dir>: a mongodump of the original platform, then the API as its users', () => {
  let t: TestApp;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  // The CLI runs on the real clock: the fixture's "today" must be the real today for the daily boards.
  const now = Date.now();

  beforeAll(async () => {
    t = await createTestApp({
      now,
      configuration: {
        rateLimiting: { badAuthentication: { enabled: false } },
        users: { premium: { enabled: true } },
      },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
    env = { DATABASE_URL: t.stores.databaseUrl, REDIS_URL: t.stores.redisUrl, LOG_LEVEL: 'silent' };
    dir = await mkdtemp(join(tmpdir(), 'original-dump-'));
    await writeDump(join(dir, 'bson'), originalDatabase({ now }), 'bson');
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const get = async <T = Record<string, unknown>>(
    url: string,
    uid: string,
    query?: Record<string, string>,
  ) => {
    const res = await t.request<T>('GET', url, { auth: await t.bearer(uid), query });
    expect(res.status).toBe(200);
    return res.body.data as T;
  };

  it('imports every collection, rejects what cannot be mapped, and exits 0', async () => {
    const rejects = join(dir, 'rejects.ndjson');
    const run = await cli('import', 'original', join(dir, 'bson'), '--rejects', rejects);
    expect(run.err).not.toMatch(/Error|stopped/);
    expect(run.code).toBe(0);
    const table = run.out.split('\n');
    const row = (name: string) =>
      table
        .find((l) => l.startsWith(`${name} `))
        ?.trim()
        .split(/\s+/);
    // collection, read, imported, skipped, rejected, adjusted, time
    expect(row('users')?.slice(0, 5)).toEqual(['users', '7', '6', '0', '1']);
    expect(row('results')?.slice(0, 5)).toEqual(['results', '9', '6', '0', '3']);
    expect(row('connections')?.slice(0, 5)).toEqual(['connections', '3', '2', '0', '1']);
    expect(row('ape-keys')?.slice(0, 5)).toEqual(['ape-keys', '3', '2', '0', '1']);
    expect(run.out).toContain('all-time leaderboards rebuilt');
    expect(run.out).toMatch(/ignored .*public\.bson: derived/);
    const lines = (await readFile(rejects, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ collection: 'users', reason: 'no valid uid' }),
        expect.objectContaining({
          collection: 'results',
          reason: expect.stringMatching(/its user is not here/),
        }),
        expect.objectContaining({ collection: 'results', reason: '"wpm" must not be greater than 420' }),
        expect.objectContaining({ collection: 'results', reason: 'unknown mode marathon' }),
        expect.objectContaining({
          collection: 'users',
          _id: expect.any(String),
          path: 'name',
          action: 'changed',
        }),
        expect.objectContaining({ path: 'personalBests.words.25[0]', action: 'left out' }),
        expect.objectContaining({ path: 'personalBests.time.60[0]', action: 'changed' }),
      ]),
    );
  });

  it('shows each user their account, personal bests, results, tags, themes, inbox and filters', async () => {
    const alice = await get('/users', 'uid-alice');
    expect(alice).toMatchObject({
      uid: 'uid-alice',
      name: 'alice',
      email: 'alice@example.test',
      addedAt: 1_600_000_000_000,
      xp: 123_456,
      completedTests: 40,
      startedTests: 50,
      timeTyping: 9000.5,
      isPremium: true,
      banned: false,
      lbOptOut: false,
      discordId: '111222333',
      favoriteQuotes: { english: ['1', '42'] },
      lbMemory: { time: { '15': { english: 7 } } },
      inventory: { badges: [{ id: 1, selected: true }, { id: 3 }] },
      inboxUnreadSize: 1,
      profileDetails: { bio: 'Types fast', keyboard: 'HHKB' },
    });
    expect(alice.streak).toMatchObject({ length: 3, maxLength: 12, hourOffset: 2.5 });
    expect(alice.tags).toEqual([expect.objectContaining({ _id: '65a00000000000000000000b', name: 'focus' })]);
    expect(alice.customThemes).toEqual([
      expect.objectContaining({
        _id: '65a000000000000000000015',
        name: 'dark_mode',
        colors: expect.any(Array),
      }),
    ]);
    expect(alice.resultFilterPresets).toEqual([expect.objectContaining({ name: 'english_only' })]);

    const bests = await get<Record<string, { wpm: number; punctuation: boolean }[]>>(
      '/users/personalBests',
      'uid-alice',
      { mode: 'time' },
    );
    expect(bests['60']?.map((b) => [b.wpm, b.punctuation]).sort()).toEqual([
      [110, false],
      [90, true],
    ]);

    const results = await get<Record<string, unknown>[]>('/results', 'uid-alice');
    expect(results).toHaveLength(3);
    const bobResults = await get<Record<string, unknown>[]>('/results', 'uid-bob');
    const legacy = bobResults.find((r) => r._id === '65a000000000000000000068');
    expect(legacy).toMatchObject({
      mode2: '60',
      language: 'english_1k',
      testDuration: 60.02,
      charStats: [300, 4, 0, 0],
      timestamp: 1_560_000_000_000,
    });
    const full = await get<Record<string, unknown>>('/results/id/65a000000000000000000068', 'uid-bob');
    expect(full).toMatchObject({ chartData: { wpm: [80], burst: [85], err: [0] }, name: 'Bob' });
    const quote = bobResults.find((r) => r._id === '65a000000000000000000069');
    expect(quote).toMatchObject({ funbox: ['mirror', 'nospace'], mode: 'quote', mode2: '123' });

    const inbox = await get<{ inbox: Record<string, unknown>[] }>('/users/inbox', 'uid-alice');
    expect(inbox.inbox).toEqual([
      expect.objectContaining({
        id: '0b6c8a52-4c5e-4d8e-9f10-aaaaaaaaaaaa',
        subject: 'Welcome',
        rewards: [{ type: 'xp', item: 500 }],
      }),
    ]);

    const bob = await get('/users', 'uid-bob');
    expect(bob).toMatchObject({ name: 'Bob', completedTests: 20, xp: 999, addedAt: 1_550_000_000_000 });
    expect(bob.customThemes).toEqual([
      expect.objectContaining({
        colors: [
          '#000000',
          '#111111',
          '#222222',
          '#333333',
          '#000000',
          '#444444',
          '#555555',
          '#666666',
          '#777777',
          '#888888',
        ],
      }),
    ]);
    expect(bob.tags).toEqual([expect.objectContaining({ name: 'old_tag' })]);
    expect(bob.lbMemory).toEqual({ time: { '15': { english: 5 } } });
    // No activity in the document: counted from the results.
    const activity = await get<{ testsByDays: (number | null)[] }>('/users/currentTestActivity', 'uid-bob');
    expect(activity.testsByDays.filter((n) => n !== null && n > 0)).toEqual([1]);
  });

  it('carries configs (legacy values upgraded), presets, friends and permissions', async () => {
    const bobConfig = await get<Record<string, unknown>>('/configs', 'uid-bob');
    expect(bobConfig).toMatchObject({
      funbox: ['mirror', 'nospace'],
      indicateTypos: 'replace',
      fontSize: 1.5,
      quoteLength: [0, 1, 2, 3],
      keymapKeys: 'minimal_numrow',
    });
    expect(bobConfig).not.toHaveProperty('someRemovedSetting');
    expect(await get('/configs', 'uid-alice')).toMatchObject({ theme: 'serika_dark', difficulty: 'expert' });
    const presets = await get<Record<string, unknown>[]>('/presets', 'uid-bob');
    expect(presets).toEqual([expect.objectContaining({ name: 'my_preset' })]);
    const friends = await get<{ uid: string }[]>('/users/friends', 'uid-alice');
    expect(friends.map((f) => f.uid).sort()).toEqual(['uid-alice', 'uid-bob']);
    const permissions = await t.db
      .selectFrom('user_permissions')
      .select(['uid', 'permission'])
      .orderBy('permission')
      .execute();
    expect(permissions).toEqual([
      { uid: 'uid-alice', permission: 'admin' },
      { uid: 'uid-alice', permission: 'quoteMod' },
    ]);
    const renamed = await t.db
      .selectFrom('users')
      .select(['uid', 'name', 'last_name_change_at'])
      .where('uid', 'in', ['uid-erin', 'uid-frank'])
      .orderBy('uid')
      .execute();
    expect(renamed).toEqual([
      { uid: 'uid-erin', name: expect.stringMatching(/^u_[0-9a-f]{14}$/), last_name_change_at: null },
      { uid: 'uid-frank', name: expect.stringMatching(/^u_[0-9a-f]{14}$/), last_name_change_at: null },
    ]);
    expect(await t.db.selectFrom('blocklist').select('kind').orderBy('kind').execute()).toEqual([
      { kind: 'chatId' },
      { kind: 'email' },
      { kind: 'name' },
    ]);
  });

  it("authenticates the original's ApeKey header unchanged; a disabled imported key answers 470", async () => {
    const header = `ApeKey ${formatApeKey(APE_KEY_ID, APE_KEY_SECRET)}`;
    const res = await t.request('GET', '/results', { auth: header });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(3);
    const wrong = await t.request('GET', '/results', {
      auth: `ApeKey ${formatApeKey(APE_KEY_ID, 'x'.repeat(32))}`,
    });
    expect(wrong.status).toBe(404);
    const disabled = await t.request('GET', '/results', {
      auth: `ApeKey ${formatApeKey(DISABLED_KEY_ID, DISABLED_KEY_SECRET)}`,
    });
    expect(disabled.status).toBe(470);
    const keys = await get<Record<string, { name: string; enabled: boolean }>>('/ape-keys', 'uid-alice');
    expect(Object.keys(keys).sort()).toEqual([APE_KEY_ID, '65a000000000000000000a02']);
  });

  it('ranks eligible users on the rebuilt boards; opted-out and banned users are absent', async () => {
    const board = await t.request<{ entries: { uid: string; wpm: number; rank: number }[] }>(
      'GET',
      '/leaderboards',
      {
        query: { language: 'english', mode: 'time', mode2: '15' },
      },
    );
    expect(board.status).toBe(200);
    const entries = (board.body.data as { entries: { uid: string; wpm: number; rank: number }[] }).entries;
    expect(entries.map((e) => [e.uid, e.wpm, e.rank])).toEqual([
      ['uid-alice', 120, 1],
      ['uid-bob', 100, 2],
    ]);
    const daily = await t.request('GET', '/leaderboards/daily', {
      query: { language: 'english', mode: 'time', mode2: '15' },
    });
    expect(daily.status).toBe(200);
    const dailyUids = ((daily.body.data as { entries: { uid: string }[] }).entries ?? []).map((e) => e.uid);
    expect(dailyUids).toEqual(['uid-alice', 'uid-bob']);
  });

  it('checks its arguments before connecting anywhere: exit 2 with a clear message', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'empty-dump-'));
    const unreachable = { DATABASE_URL: 'postgres://u:p@127.0.0.1:1/none', REDIS_URL: 'redis://127.0.0.1:1' };
    try {
      for (const [argv, message] of [
        [['import', 'original', join(dir, 'missing')], 'does not exist'],
        [['import', 'original', join(dir, 'bson', 'users.bson')], 'is not a directory'],
        [['import', 'original', empty], 'no collection to import'],
        [
          ['import', 'original', join(dir, 'bson'), '--rejects', join(dir, 'nowhere', 'r.ndjson')],
          'does not exist',
        ],
        [['import', 'original'], "missing required argument 'dir'"],
      ] as const) {
        const err: string[] = [];
        const code = await runCli([...argv], { out: () => undefined, err: (l) => err.push(l) }, unreachable);
        expect({ code, message: err.join('\n') }).toEqual({
          code: 2,
          message: expect.stringContaining(message),
        });
        expect(err.join('\n')).not.toContain('target:');
      }
      const help = await cli('--help');
      expect(help.out).toMatch(/import/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
