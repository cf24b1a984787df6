import { LANGUAGES } from '../../../src/common/languages';
import { AdminService } from '../../../src/modules/admin/admin.service';
import { createUser } from '../../support/factories';
import { freshIp } from '../../support/route-auth';
import { keysMatching } from '../../support/redis-keys';
import { createTestApp, type TestApp } from '../../support/test-app';
import { clientResult, signed, submit } from '../results/result-factory';
import { afterResult, DAY, eligible, MINUTE, savedEvent, type Member } from './support';

interface Entry {
  uid: string;
  name: string;
  rank: number;
  wpm: number;
  acc: number;
  raw: number;
  consistency: number;
  timestamp: number;
  isPremium?: boolean;
  badgeId?: number;
  chatId?: string;
}
interface DailyPage {
  entries: Entry[];
  count: number;
  minWpm: number;
  pageSize: number;
}

// 2026-11-22 (a Sunday) 12:00 UTC
const NOON = Date.UTC(2026, 10, 22, 12);
const TODAY = Date.UTC(2026, 10, 22);

describe('daily leaderboards', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      now: NOON,
      env: {
        rateLimit: {
          globalPerMinute: 100_000,
          overrides: { leaderboardsGet: { max: 100_000 }, resultsAdd: { max: 100_000 } },
        },
      },
    });
  });
  afterAll(() => t.close());
  afterEach(() => t.clock.set(NOON));

  const daily = (query: Record<string, string | number | boolean> = {}, auth?: string) =>
    t.request<{ data: DailyPage }>('GET', '/leaderboards/daily', {
      query: { language: 'english', mode: 'time', mode2: '15', ...query },
      auth,
      ip: freshIp(),
    });
  const ranked = (page: DailyPage) => page.entries.map((e) => [e.uid, e.wpm, e.rank]);
  const post = async (who: Pick<Member, 'uid'>, overrides: Record<string, unknown>) => {
    t.clock.advance(MINUTE);
    const res = await submit(
      t,
      who.uid,
      signed(clientResult({ mode: 'time', mode2: '15', testDuration: 15, ...overrides }), who.uid),
      // Issued at the (moved) clock's now: tests cross days.
      await t.bearer(who.uid),
    );
    expect(res.status).toBe(200);
    return res.body.data as { dailyLeaderboardRank?: number; isPb: boolean };
  };

  /** A board of its own per test: one language per test, enabled by a rule. */
  let langCounter = 0;
  // Plain names (letters only) other than english, enabled for time 15 by one pattern.
  const LANGS = LANGUAGES.filter((l) => /^[a-z]+$/.test(l) && l !== 'english').slice(0, 40);
  const freshBoard = () => LANGS[langCounter++ % LANGS.length]!;
  beforeAll(async () => {
    await t.configure({
      dailyLeaderboards: {
        validModeRules: [
          { language: 'english', mode: 'time', mode2: '(15|60)' },
          { language: '[a-z]+', mode: 'time', mode2: '15' },
        ],
      },
    });
  });

  it('a result of an eligible user enters today’s board: rank in the response, entry on the board', async () => {
    const me = await eligible(t, { premiumExpiresAt: -1 });
    const data = await post(me, { wpm: 88.5, rawWpm: 90.25, acc: 97.5 });
    expect(data.dailyLeaderboardRank).toBe(1);
    const res = await daily();
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Daily leaderboard retrieved');
    expect(res.body.data.pageSize).toBe(50);
    const mine = res.body.data.entries.find((e) => e.uid === me.uid);
    expect(mine).toEqual({
      uid: me.uid,
      name: me.name,
      wpm: 88.5,
      raw: 90.25,
      acc: 97.5,
      // The consistency of the typed test's chart, as the client computes it.
      consistency: expect.any(Number) as number,
      timestamp: Math.floor(t.clock.now() / 1000) * 1000,
      rank: expect.any(Number) as number,
    });
  });

  it('keeps only the best result of the day per user (50, 55, 53 → 55); the rank comes back only on improvement', async () => {
    const lang = freshBoard();
    const me = await eligible(t);
    const ranks: (number | undefined)[] = [];
    for (const wpm of [50, 55, 53])
      ranks.push((await post(me, { language: lang, wpm, rawWpm: wpm })).dailyLeaderboardRank);
    expect(ranks).toEqual([1, 1, undefined]);
    const res = await daily({ language: lang });
    expect(ranks.length).toBe(3);
    expect(ranked(res.body.data)).toEqual([[me.uid, 55, 1]]);
    expect(res.body.data.count).toBe(1);
  });

  it('breaks ties by accuracy, then by the earlier submission', async () => {
    const lang = freshBoard();
    const [early, late, accurate] = await Promise.all([eligible(t), eligible(t), eligible(t)]);
    const at = (uid: string, timestamp: number, acc: number) =>
      afterResult(t, savedEvent(t, { uid, timestamp, result: { language: lang, wpm: 100, acc } }));
    await at(late.uid, NOON + 2000, 95);
    await at(early.uid, NOON + 1000, 95);
    await at(accurate.uid, NOON + 9000, 96);
    const res = await daily({ language: lang });
    expect(res.body.data.entries.map((e) => e.uid)).toEqual([accurate.uid, early.uid, late.uid]);
  });

  it('trims the board to dailyLeaderboards.maxResults, evicting the lowest; minWpm is the lowest kept', async () => {
    const lang = freshBoard();
    await t.configure({ dailyLeaderboards: { maxResults: 3 } });
    try {
      const users = await Promise.all(Array.from({ length: 5 }, () => eligible(t)));
      const add = (i: number, wpm: number) =>
        afterResult(t, savedEvent(t, { uid: users[i]!.uid, result: { language: lang, wpm } }));
      expect(await add(0, 60)).toEqual({ dailyLeaderboardRank: 1 });
      expect(await add(1, 70)).toEqual({ dailyLeaderboardRank: 1 });
      expect(await add(2, 80)).toEqual({ dailyLeaderboardRank: 1 });
      // A fourth entry pushes out the lowest (60)...
      expect(await add(3, 65)).toEqual({ dailyLeaderboardRank: 3 });
      // ...and a result below every kept entry does not stay: no rank.
      expect(await add(4, 50)).toEqual({});
      const res = await daily({ language: lang });
      expect(ranked(res.body.data)).toEqual([
        [users[2]!.uid, 80, 1],
        [users[1]!.uid, 70, 2],
        [users[3]!.uid, 65, 3],
      ]);
      expect(res.body.data).toMatchObject({ count: 3, minWpm: 65 });
      const evicted = await t.request('GET', '/leaderboards/daily/rank', {
        query: { language: lang, mode: 'time', mode2: '15' },
        auth: await t.bearer(users[0]!.uid),
      });
      expect(evicted.body).toEqual({ message: 'Daily leaderboard rank retrieved', data: null });
    } finally {
      await t.configure({ dailyLeaderboards: { maxResults: 250 } });
    }
  });

  it('pages the board (page, pageSize) with global ranks', async () => {
    const lang = freshBoard();
    const users = await Promise.all(Array.from({ length: 12 }, () => eligible(t)));
    for (const [i, u] of users.entries())
      await afterResult(t, savedEvent(t, { uid: u.uid, result: { language: lang, wpm: 100 - i } }));
    const second = await daily({ language: lang, page: 1, pageSize: 10 });
    expect(ranked(second.body.data)).toEqual([
      [users[10]!.uid, 90, 11],
      [users[11]!.uid, 89, 12],
    ]);
    expect(second.body.data).toMatchObject({ count: 12, minWpm: 89, pageSize: 10 });
    expect((await daily({ language: lang, page: 5, pageSize: 10 })).body.data.entries).toEqual([]);
  });

  it('an empty board answers count 0 and minWpm 0', async () => {
    expect((await daily({ mode2: '60', daysBefore: 1 })).body.data).toEqual({
      entries: [],
      count: 0,
      minWpm: 0,
      pageSize: 50,
    });
  });

  describe('day boundaries (UTC) and daysBefore', () => {
    it('a new day starts a new board; yesterday stays readable with daysBefore=1', async () => {
      const lang = freshBoard();
      const me = await eligible(t);
      t.clock.set(TODAY + DAY - 90_000); // 23:58:30
      await post(me, { language: lang, wpm: 70 });
      expect(ranked((await daily({ language: lang })).body.data)).toEqual([[me.uid, 70, 1]]);

      t.clock.set(TODAY + DAY + 5000); // 00:00:05 next day
      expect((await daily({ language: lang })).body.data.entries).toEqual([]);
      expect(ranked((await daily({ language: lang, daysBefore: 1 })).body.data)).toEqual([[me.uid, 70, 1]]);
      // A slower result today still enters today's board.
      expect((await post(me, { language: lang, wpm: 60 })).dailyLeaderboardRank).toBe(1);
      expect(ranked((await daily({ language: lang, daysBefore: 0 })).body.data)).toEqual([[me.uid, 60, 1]]);

      t.clock.set(TODAY + 2 * DAY + 5000);
      expect(ranked((await daily({ language: lang, daysBefore: 1 })).body.data)).toEqual([[me.uid, 60, 1]]);
    });

    it('boards expire leaderboardExpirationTimeInDays after their day began', async () => {
      const lang = freshBoard();
      const me = await eligible(t);
      await afterResult(t, savedEvent(t, { uid: me.uid, result: { language: lang } }));
      const keys = await keysMatching(t, `lb:{daily:${lang}:time:15:${TODAY}}:*`);
      expect(keys.sort()).toEqual([
        `lb:{daily:${lang}:time:15:${TODAY}}:entries`,
        `lb:{daily:${lang}:time:15:${TODAY}}:scores`,
      ]);
      for (const key of keys) {
        const ttl = await t.redis.pttl(key);
        const expected = TODAY + 2 * DAY - t.clock.now();
        expect(Math.abs(ttl - expected)).toBeLessThan(5000);
      }
    });

    it.each([[2], [-1], ['yesterday'], [0.5]])('daysBefore %p → 400', async (daysBefore) => {
      const res = await daily({ daysBefore });
      expect(res.status).toBe(400);
      expect(res.body.validationErrors).toEqual(['"daysBefore" must be one of the following values: 0, 1']);
    });
  });

  describe('which boards exist', () => {
    it('answers 404 for a valid mode that no validModeRules pattern enables', async () => {
      const queries: Record<string, string>[] = [
        { mode: 'words', mode2: '25' },
        { language: 'english_1k' },
        { mode2: '60', language: 'german' },
      ];
      for (const query of queries) {
        const res = await daily(query);
        expect({ query, status: res.status, body: res.body }).toEqual({
          query,
          status: 404,
          body: { message: 'There is no daily leaderboard for this mode', data: null },
        });
      }
    });

    it('validates language, mode and mode2 as the all-time board does (400)', async () => {
      const res = await daily({ mode: 'zen', mode2: 'zen', language: 'nope' });
      expect(res.status).toBe(400);
      expect([...(res.body.validationErrors ?? [])].sort()).toEqual([
        '"language" must be a supported language',
        '"mode" must be one of the following values: time, words',
      ]);
    });

    it('does not store results of modes without a board', async () => {
      const me = await eligible(t);
      const data = await post(me, { mode: 'time', mode2: '30', testDuration: 30, language: 'english' });
      expect(data).not.toHaveProperty('dailyLeaderboardRank');
      expect(await keysMatching(t, 'lb:{daily:english:time:30:*')).toEqual([]);
    });

    it('answers 503 while daily boards are disabled (before validating), and stores nothing meanwhile', async () => {
      await t.configure({ dailyLeaderboards: { enabled: false } });
      try {
        const me = await eligible(t);
        expect(await post(me, { wpm: 300, rawWpm: 300 })).not.toHaveProperty('dailyLeaderboardRank');
        for (const query of [{}, { mode: 'nope' }] as Record<string, string>[]) {
          const res = await daily(query);
          expect(res.status).toBe(503);
          expect(res.body).toEqual({
            message: 'Daily leaderboards are not available at this time.',
            data: null,
          });
        }
      } finally {
        await t.configure({ dailyLeaderboards: { enabled: true } });
      }
    });
  });

  describe('who enters (each condition alone)', () => {
    const cases: [
      string,
      Parameters<typeof savedEvent>[1] extends infer O ? Omit<O & object, 'uid'> : never,
      boolean,
    ][] = [
      ['an eligible user', {}, true],
      ['a banned user', { account: { banned: true } }, false],
      ['an opted-out user', { account: { lbOptOut: true } }, false],
      ['a user who typed exactly minTimeTyping before', { account: { timeTypingBefore: 7200 } }, false],
      ['a result with a funbox that cannot set PBs', { result: { funbox: ['capitals'] } }, false],
      ['a result with a funbox that can', { result: { funbox: ['mirror'] } }, true],
      ['a bailed-out result', { result: { bailedOut: true } }, false],
      ['stop-on-letter below 100% accuracy', { result: { stopOnLetter: true, acc: 99 } }, false],
      ['stop-on-letter at 100% accuracy', { result: { stopOnLetter: true, acc: 100 } }, true],
    ];
    it.each(cases)('%s → on the board: %s', async (_name, overrides, enters) => {
      const lang = freshBoard();
      const me = await eligible(t);
      const extras = await afterResult(
        t,
        savedEvent(t, { ...overrides, uid: me.uid, result: { language: lang, ...overrides.result } }),
      );
      expect('dailyLeaderboardRank' in extras).toBe(enters);
      expect((await daily({ language: lang })).body.data.count).toBe(enters ? 1 : 0);
    });

    it('in development the time check is skipped', async () => {
      const dev = await createTestApp({ mode: 'dev', now: NOON });
      try {
        const { uid } = await createUser(dev.db, { timeTyping: 0 });
        expect(await afterResult(dev, savedEvent(dev, { uid, account: { timeTypingBefore: 0 } }))).toEqual({
          dailyLeaderboardRank: 1,
        });
        const banned = await createUser(dev.db, { timeTyping: 0 });
        expect(
          await afterResult(
            dev,
            savedEvent(dev, { uid: banned.uid, account: { timeTypingBefore: 0, banned: true } }),
          ),
        ).toEqual({});
      } finally {
        await dev.close();
      }
    });

    it('a real submission of a user below the typing-time threshold gets no daily rank', async () => {
      const newcomer = await createUser(t.db, { timeTyping: 0 });
      const data = await post(newcomer, {});
      expect(data).not.toHaveProperty('dailyLeaderboardRank');
    });
  });

  it('strips isPremium while premium is disabled server-wide', async () => {
    const lang = freshBoard();
    const me = await eligible(t, { premiumExpiresAt: -1 });
    await t.configure({ users: { premium: { enabled: true } } });
    try {
      await afterResult(
        t,
        savedEvent(t, {
          uid: me.uid,
          result: { language: lang },
          account: { premiumExpiresAt: -1, selectedBadgeId: 4, chatId: 'c1', chatAvatar: 'a1' },
        }),
      );
      expect((await daily({ language: lang })).body.data.entries[0]).toMatchObject({
        isPremium: true,
        badgeId: 4,
        chatId: 'c1',
      });
    } finally {
      await t.configure({ users: { premium: { enabled: false } } });
    }
    expect((await daily({ language: lang })).body.data.entries[0]).not.toHaveProperty('isPremium');
  });

  describe('GET /leaderboards/daily/rank', () => {
    it('returns the caller’s entry, null when absent; Bearer only', async () => {
      const lang = freshBoard();
      const [a, b] = await Promise.all([eligible(t), eligible(t)]);
      await afterResult(t, savedEvent(t, { uid: a.uid, name: a.name, result: { language: lang, wpm: 90 } }));
      await afterResult(t, savedEvent(t, { uid: b.uid, name: b.name, result: { language: lang, wpm: 80 } }));
      const query = { language: lang, mode: 'time', mode2: '15' };
      const res = await t.request('GET', '/leaderboards/daily/rank', { query, auth: b.auth });
      expect(res.body).toMatchObject({
        message: 'Daily leaderboard rank retrieved',
        data: { uid: b.uid, rank: 2, wpm: 80 },
      });
      const none = await t.request('GET', '/leaderboards/daily/rank', {
        query: { ...query, daysBefore: 1 },
        auth: b.auth,
      });
      expect(none.body.data).toBeNull();
      const anonymous = await t.request('GET', '/leaderboards/daily/rank', { query, ip: freshIp() });
      expect(anonymous.status).toBe(401);
    });
  });

  describe('purges', () => {
    const onBoards = async (uid: string, lang: string) => {
      const today = await daily({ language: lang });
      const yesterday = await daily({ language: lang, daysBefore: 1 });
      return [...today.body.data.entries, ...yesterday.body.data.entries].filter((e) => e.uid === uid).length;
    };
    const seedTwoDays = async (uid: string, lang: string) => {
      await afterResult(t, savedEvent(t, { uid, timestamp: NOON - DAY, result: { language: lang } }));
      await afterResult(t, savedEvent(t, { uid, result: { language: lang } }));
      expect(await onBoards(uid, lang)).toBe(2);
    };

    it('opting out removes the user from today’s and yesterday’s boards at once', async () => {
      const lang = freshBoard();
      const me = await eligible(t);
      await seedTwoDays(me.uid, lang);
      expect((await t.request('POST', '/users/optOutOfLeaderboards', { auth: me.auth })).status).toBe(200);
      expect(await onBoards(me.uid, lang)).toBe(0);
    });

    it('a ban removes the user at once', async () => {
      const lang = freshBoard();
      const me = await eligible(t);
      await seedTwoDays(me.uid, lang);
      await t.app.get(AdminService).setBanned(me.uid, true);
      expect(await onBoards(me.uid, lang)).toBe(0);
    });

    it('an account reset and an account deletion remove the user at once', async () => {
      const lang = freshBoard();
      const [reset, deleted] = await Promise.all([eligible(t), eligible(t)]);
      await seedTwoDays(reset.uid, lang);
      await seedTwoDays(deleted.uid, lang);
      expect((await t.request('PATCH', '/users/reset', { auth: await t.bearer(reset.uid) })).status).toBe(
        200,
      );
      expect(await onBoards(reset.uid, lang)).toBe(0);
      expect((await t.request('DELETE', '/users', { auth: await t.bearer(deleted.uid) })).status).toBe(200);
      expect(await onBoards(deleted.uid, lang)).toBe(0);
    });
  });
});
