import { sql, type RawBuilder } from 'kysely';
import { SnapshotRepository } from '../../../src/modules/leaderboards/snapshot.repository';
import { createTestApp, type TestApp } from '../../support/test-app';
import { expectBearerOnly, freshIp, someApeKey } from '../../support/route-auth';
import { createUser } from '../../support/factories';
import { eligible, rebuild, seedPb, setUser, type Member } from './support';

interface Entry {
  uid: string;
  name: string;
  rank: number;
  wpm: number;
  acc: number;
  raw: number;
  consistency: number;
  timestamp: number;
  badgeId?: number;
  chatId?: string;
  chatAvatar?: string;
  isPremium?: boolean;
  globalRank?: number;
  friendsRank?: number;
}
interface Page {
  entries: Entry[];
  count: number;
  pageSize: number;
}

describe('GET /leaderboards (all-time)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      env: { rateLimit: { globalPerMinute: 100_000, overrides: { leaderboardsGet: { max: 100_000 } } } },
    });
  });
  afterAll(() => t.close());

  const board = (query: Record<string, string | number | boolean>, auth?: string) =>
    t.request<{ data: Page }>('GET', '/leaderboards', { query, auth, ip: freshIp() });

  /** A board of its own per test: a language nobody else in this file uses. */
  const uids = (page: Page) => page.entries.map((e) => e.uid);

  describe('validation (400 with validationErrors)', () => {
    const valid = { language: 'english', mode: 'time', mode2: '15' };
    it.each<[string, Record<string, string | number>, string[]]>([
      [
        'no query',
        {},
        [
          '"language" must be a supported language',
          '"mode" must be one of the following values: time, words',
        ],
      ],
      ['unknown language', { ...valid, language: 'martian' }, ['"language" must be a supported language']],
      [
        'quote mode',
        { ...valid, mode: 'quote' },
        ['"mode" must be one of the following values: time, words'],
      ],
      [
        'time 30',
        { ...valid, mode2: '30' },
        ['"mode2" must be one of 15, 60 for time and 10, 25, 50, 100 for words'],
      ],
      [
        'words 15',
        { ...valid, mode: 'words', mode2: '15' },
        ['"mode2" must be one of 15, 60 for time and 10, 25, 50, 100 for words'],
      ],
      [
        'time 10',
        { ...valid, mode2: '10' },
        ['"mode2" must be one of 15, 60 for time and 10, 25, 50, 100 for words'],
      ],
      ['pageSize 9', { ...valid, pageSize: 9 }, ['"pageSize" must not be less than 10']],
      ['pageSize 201', { ...valid, pageSize: 201 }, ['"pageSize" must not be greater than 200']],
      [
        'pageSize text',
        { ...valid, pageSize: 'ten' },
        [
          '"pageSize" must not be greater than 200',
          '"pageSize" must not be less than 10',
          '"pageSize" must be an integer number',
        ],
      ],
      ['page -1', { ...valid, page: -1 }, ['"page" must not be less than 0']],
      ['page 1.5', { ...valid, page: 1.5 }, ['"page" must be an integer number']],
      ['friendsOnly yes', { ...valid, friendsOnly: 'yes' }, ['"friendsOnly" must be a boolean value']],
      ['unknown field', { ...valid, daysBefore: 1 }, ["Unrecognized key(s) in object: 'daysBefore'"]],
    ])('%s', async (_name, query, errors) => {
      const res = await board(query);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Invalid request parameters');
      expect(res.body.data).toBeNull();
      expect([...(res.body.validationErrors ?? [])].sort()).toEqual([...errors].sort());
    });
  });

  it('is public and answers an empty board with count 0 and the default page size', async () => {
    const res = await board({ language: 'yiddish', mode: 'words', mode2: '100' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Leaderboard retrieved',
      data: { entries: [], count: 0, pageSize: 50 },
    });
  });

  it('orders by wpm desc, then acc desc, then the older personal best; ranks 1..n with every entry field', async () => {
    const lang = 'german';
    const [a, b, c, d] = await Promise.all([eligible(t), eligible(t), eligible(t), eligible(t)]);
    await seedPb(t, a!.uid, {
      language: lang,
      wpm: 120,
      acc: 90,
      timestamp: 3000,
      raw: 125,
      consistency: 70,
    });
    await seedPb(t, b!.uid, { language: lang, wpm: 120, acc: 95, timestamp: 5000 });
    await seedPb(t, c!.uid, { language: lang, wpm: 120, acc: 90, timestamp: 2000 });
    await seedPb(t, d!.uid, { language: lang, wpm: 130, acc: 80, timestamp: 9000 });
    await rebuild(t);
    const res = await board({ language: lang, mode: 'time', mode2: '15' });
    expect(res.status).toBe(200);
    expect(uids(res.body.data)).toEqual([d!.uid, b!.uid, c!.uid, a!.uid]);
    expect(res.body.data.entries.map((e) => e.rank)).toEqual([1, 2, 3, 4]);
    expect(res.body.data.count).toBe(4);
    // Premium is off server-wide by default: no isPremium; no badge or chat link: left out.
    expect(res.body.data.entries[3]).toEqual({
      uid: a!.uid,
      name: a!.name,
      wpm: 120,
      acc: 90,
      raw: 125,
      consistency: 70,
      timestamp: 3000,
      rank: 4,
    });
  });

  it('builds only qualifying personal bests: punctuation, numbers, lazy mode and other difficulties stay off the board', async () => {
    const lang = 'french';
    const users = await Promise.all(Array.from({ length: 5 }, () => eligible(t)));
    await seedPb(t, users[0]!.uid, { language: lang, wpm: 50 });
    await seedPb(t, users[1]!.uid, { language: lang, wpm: 150, punctuation: true });
    await seedPb(t, users[2]!.uid, { language: lang, wpm: 150, numbers: true });
    await seedPb(t, users[3]!.uid, { language: lang, wpm: 150, lazyMode: true });
    await seedPb(t, users[4]!.uid, { language: lang, wpm: 150, difficulty: 'expert' });
    await rebuild(t);
    const res = await board({ language: lang, mode: 'time', mode2: '15' });
    expect(uids(res.body.data)).toEqual([users[0]!.uid]);
    expect(res.body.data.count).toBe(1);
  });

  it('keeps every language and mode on its own board (time 60, words 10/25/50/100)', async () => {
    const lang = 'italian';
    const user = await eligible(t);
    const boards: [string, string, number][] = [
      ['time', '15', 61],
      ['time', '60', 62],
      ['words', '10', 63],
      ['words', '25', 64],
      ['words', '50', 65],
      ['words', '100', 66],
    ];
    for (const [mode, mode2, wpm] of boards) await seedPb(t, user.uid, { language: lang, mode, mode2, wpm });
    await seedPb(t, user.uid, { language: lang, mode: 'time', mode2: '30', wpm: 99 });
    const other = await eligible(t);
    await seedPb(t, other.uid, { language: 'italian_1k', mode: 'time', mode2: '60', wpm: 200 });
    await rebuild(t);
    for (const [mode, mode2, wpm] of boards) {
      const res = await board({ language: lang, mode, mode2 });
      expect({ mode, mode2, entries: res.body.data.entries.map((e) => [e.uid, e.wpm]) }).toEqual({
        mode,
        mode2,
        entries: [[user.uid, wpm]],
      });
    }
  });

  describe('eligibility, each condition alone', () => {
    let lang: string;
    let ok: Member;
    beforeAll(async () => {
      lang = 'dutch';
      ok = await eligible(t);
      const banned = await eligible(t, { banned: true });
      const optedOut = await eligible(t, { lbOptOut: true });
      const exactlyMin = await createUser(t.db, { timeTyping: 7200 });
      const never = await createUser(t.db, { timeTyping: 0 });
      for (const u of [ok, banned, optedOut, exactlyMin, never]) await seedPb(t, u.uid, { language: lang });
      await rebuild(t);
    });

    it('only the eligible user is on the board', async () => {
      const res = await board({ language: lang, mode: 'time', mode2: '15' });
      expect(uids(res.body.data)).toEqual([ok.uid]);
      expect(res.body.data.count).toBe(1);
    });

    it('follows leaderboards.minTimeTyping', async () => {
      const low = await createUser(t.db, { timeTyping: 100 });
      await seedPb(t, low.uid, { language: 'swedish' });
      await t.configure({ leaderboards: { minTimeTyping: 99 } });
      try {
        await rebuild(t);
        const res = await board({ language: 'swedish', mode: 'time', mode2: '15' });
        expect(uids(res.body.data)).toEqual([low.uid]);
      } finally {
        await t.configure({ leaderboards: { minTimeTyping: 7200 } });
        await rebuild(t);
      }
      const after = await board({ language: 'swedish', mode: 'time', mode2: '15' });
      expect(uids(after.body.data)).toEqual([]);
    });
  });

  it('ranks the same users whether the build joins against the eligible or the ineligible ones', async () => {
    const lang = 'finnish';
    const veteran = await eligible(t, { timeTyping: 5e9 });
    const bannedVeteran = await eligible(t, { timeTyping: 5e9, banned: true });
    const optedOutVeteran = await eligible(t, { timeTyping: 5e9, lbOptOut: true });
    const regular = await eligible(t);
    for (const u of [veteran, bannedVeteran, optedOutVeteran, regular])
      await seedPb(t, u.uid, { language: lang });
    await sql`ANALYZE users`.execute(t.db);
    const choice = jest.spyOn(
      SnapshotRepository.prototype as unknown as {
        eligibilityCondition(minTimeTyping: number | null): Promise<RawBuilder<unknown>>;
      },
      'eligibilityCondition',
    );
    const joinUsed = async () => {
      const condition = await (choice.mock.results.at(-1)?.value as Promise<RawBuilder<unknown>>);
      return condition.compile(t.db).sql.trim().startsWith('NOT EXISTS') ? 'ineligible' : 'eligible';
    };
    try {
      // Nearly every user is below this threshold: the build hashes the few eligible users.
      await t.configure({ leaderboards: { minTimeTyping: 1e9 } });
      await rebuild(t);
      expect(await joinUsed()).toBe('eligible');
      expect(uids((await board({ language: lang, mode: 'time', mode2: '15' })).body.data)).toEqual([
        veteran.uid,
      ]);
      // Nearly every user is above the default: the build hashes the few ineligible users.
      await t.configure({ leaderboards: { minTimeTyping: 7200 } });
      await rebuild(t);
      expect(await joinUsed()).toBe('ineligible');
      expect(new Set(uids((await board({ language: lang, mode: 'time', mode2: '15' })).body.data))).toEqual(
        new Set([veteran.uid, regular.uid]),
      );
    } finally {
      choice.mockRestore();
      await t.configure({ leaderboards: { minTimeTyping: 7200 } });
    }
  });

  describe('paging', () => {
    const lang = 'polish';
    let ranked: string[];
    beforeAll(async () => {
      const users = await Promise.all(Array.from({ length: 25 }, () => eligible(t)));
      for (const [i, u] of users.entries()) await seedPb(t, u.uid, { language: lang, wpm: 200 - i });
      ranked = users.map((u) => u.uid);
      await rebuild(t);
    });

    it.each([
      [0, 10, 0, 10],
      [1, 10, 10, 20],
      [2, 10, 20, 25],
      [3, 10, 25, 25],
      [0, 200, 0, 25],
      [1, 24, 24, 25],
    ])('page %i of size %i holds ranks %i+1..%i', async (page, pageSize, from, to) => {
      const res = await board({ language: lang, mode: 'time', mode2: '15', page, pageSize });
      expect(res.status).toBe(200);
      expect(uids(res.body.data)).toEqual(ranked.slice(from, to));
      expect(res.body.data.entries.map((e) => e.rank)).toEqual(
        Array.from({ length: to - from }, (_, i) => from + i + 1),
      );
      expect(res.body.data).toMatchObject({ count: 25, pageSize });
    });

    it('answers a page far past the end (even past the range of ranks) with no entries', async () => {
      for (const page of [1_000_000, 9_007_199_254_740])
        expect(
          (await board({ language: lang, mode: 'time', mode2: '15', page, pageSize: 200 })).body.data,
        ).toEqual({
          entries: [],
          count: 25,
          pageSize: 200,
        });
    });
  });

  describe('entry details', () => {
    it('shows the selected badge, the chat link and premium (only while premium is enabled)', async () => {
      const lang = 'czech';
      const u = await eligible(t, { premiumExpiresAt: -1 });
      const expired = await eligible(t, { premiumExpiresAt: 1000 });
      await setUser(t, u.uid, {
        chat_id: 'chat-1',
        chat_avatar: 'avatar-1',
        inventory_badges: JSON.stringify([{ id: 3 }, { id: 7, selected: true }]),
      });
      await seedPb(t, u.uid, { language: lang, wpm: 90 });
      await seedPb(t, expired.uid, { language: lang, wpm: 80 });
      await rebuild(t);
      const query = { language: lang, mode: 'time', mode2: '15' };
      const off = await board(query);
      expect(off.body.data.entries[0]).toMatchObject({
        badgeId: 7,
        chatId: 'chat-1',
        chatAvatar: 'avatar-1',
      });
      expect(off.body.data.entries.map((e) => 'isPremium' in e)).toEqual([false, false]);

      await t.configure({ users: { premium: { enabled: true } } });
      try {
        const on = await board(query);
        expect(on.body.data.entries.map((e) => e.isPremium)).toEqual([true, false]);
        const rank = await t.request<{ data: Entry }>('GET', '/leaderboards/rank', { query, auth: u.auth });
        expect(rank.body.data.isPremium).toBe(true);
      } finally {
        await t.configure({ users: { premium: { enabled: false } } });
      }
    });

    it('shows the current name (names are read at request time, not frozen in the snapshot)', async () => {
      const u = await eligible(t);
      await seedPb(t, u.uid, { language: 'slovak' });
      await rebuild(t);
      await setUser(t, u.uid, { name: `renamed_${Date.now() % 100000}` });
      const res = await board({ language: 'slovak', mode: 'time', mode2: '15' });
      expect(res.body.data.entries[0]!.name).toMatch(/^renamed_/);
    });
  });

  describe('opt-out and bans take effect on reads at once', () => {
    it('hides a user banned or opted out after the build, and drops them at the next build', async () => {
      const lang = 'hungarian';
      const [a, b, c] = await Promise.all([eligible(t), eligible(t), eligible(t)]);
      await seedPb(t, a!.uid, { language: lang, wpm: 100 });
      await seedPb(t, b!.uid, { language: lang, wpm: 90 });
      await seedPb(t, c!.uid, { language: lang, wpm: 80 });
      await rebuild(t);
      const query = { language: lang, mode: 'time', mode2: '15' };

      await setUser(t, a!.uid, { banned: true });
      const optOut = await t.request('POST', '/users/optOutOfLeaderboards', { auth: b!.auth });
      expect(optOut.status).toBe(200);
      const now = await board(query);
      expect(uids(now.body.data)).toEqual([c!.uid]);
      const rank = await t.request('GET', '/leaderboards/rank', { query, auth: b!.auth });
      expect(rank.body.data).toBeNull();

      await rebuild(t);
      const next = await board(query);
      expect(next.body.data.entries.map((e) => [e.uid, e.rank])).toEqual([[c!.uid, 1]]);
      expect(next.body.data.count).toBe(1);
    });
  });

  describe('GET /leaderboards/rank', () => {
    const lang = 'danish';
    let first: Member;
    let second: Member;
    beforeAll(async () => {
      first = await eligible(t);
      second = await eligible(t);
      await seedPb(t, first.uid, { language: lang, wpm: 100 });
      await seedPb(t, second.uid, {
        language: lang,
        wpm: 90,
        acc: 91,
        raw: 92,
        consistency: 60,
        timestamp: 42,
      });
      await rebuild(t);
    });
    const query = { language: lang, mode: 'time', mode2: '15' };

    it("returns the caller's entry", async () => {
      const res = await t.request('GET', '/leaderboards/rank', { query, auth: second.auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: 'Rank retrieved',
        data: {
          uid: second.uid,
          name: second.name,
          wpm: 90,
          acc: 91,
          raw: 92,
          consistency: 60,
          timestamp: 42,
          rank: 2,
        },
      });
    });

    it('returns null for a caller who is not on the board', async () => {
      const outsider = await eligible(t);
      const res = await t.request('GET', '/leaderboards/rank', { query, auth: outsider.auth });
      expect(res.body).toEqual({ message: 'Rank retrieved', data: null });
    });

    it('accepts an ApeKey', async () => {
      const created = await t.request<{ data: { apeKey: string } }>('POST', '/ape-keys', {
        auth: first.auth,
        body: { name: 'lb', enabled: true },
      });
      expect(created.status).toBe(200);
      const res = await t.request<{ data: Entry }>('GET', '/leaderboards/rank', {
        query,
        auth: `ApeKey ${created.body.data.apeKey}`,
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ uid: first.uid, rank: 1 });
    });

    it('needs authentication and validates its query', async () => {
      const anonymous = await t.request('GET', '/leaderboards/rank', { query, ip: freshIp() });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toEqual({ message: 'Unauthorized', data: null });
      const bad = await t.request('GET', '/leaderboards/rank', {
        query: { ...query, mode2: '25' },
        auth: first.auth,
      });
      expect(bad.status).toBe(400);
      expect(bad.body.validationErrors).toEqual([
        '"mode2" must be one of 15, 60 for time and 10, 25, 50, 100 for words',
      ]);
      const extra = await t.request('GET', '/leaderboards/rank', {
        query: { ...query, page: 0 },
        auth: first.auth,
      });
      expect(extra.status).toBe(400);
      expect(extra.body.validationErrors).toEqual(["Unrecognized key(s) in object: 'page'"]);
    });
  });

  describe('authentication', () => {
    const query = { language: 'english', mode: 'time', mode2: '15' };

    it('the public boards still verify a header when one is sent: a garbage token is 401', async () => {
      for (const path of ['/leaderboards', '/leaderboards/daily', '/leaderboards/xp/weekly']) {
        const res = await t.request('GET', path, {
          query: path.includes('xp') ? {} : query,
          auth: 'Bearer nope',
          ip: freshIp(),
        });
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 401,
          body: { message: 'Unauthorized', data: null },
        });
      }
    });

    it('an unknown ApeKey on the rank route is 404 ApeKey not found', async () => {
      const res = await t.request('GET', '/leaderboards/rank', { query, auth: someApeKey(), ip: freshIp() });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'ApeKey not found', data: null });
    });

    it('the daily and weekly rank routes are Bearer only', async () => {
      await expectBearerOnly(t, 'GET', '/leaderboards/daily/rank?language=english&mode=time&mode2=15');
      await expectBearerOnly(t, 'GET', '/leaderboards/xp/weekly/rank');
    });
  });
});
