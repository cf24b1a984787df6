import { newId } from '../../../src/common/ids';
import { createUser, type UserRow } from '../../support/factories';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';
import { rebuild, seedPb } from '../leaderboards/support';
import { clientResult, signed } from '../results/result-factory';
import { expectAnswer, expectOk, jsonQuery, OriginalClient } from './client';
import { describeCoverage } from './coverage';
import { LEADERBOARD_ENTRY, USER, XP_LEADERBOARD_ENTRY } from './original-shapes';
import { arrayOf, lit, obj } from './shape';

const NOW = Date.UTC(2026, 10, 25, 10, 0); // a Wednesday
const MINUTE = 60_000;
const THEME = ['#000', '#111', '#222', '#333', '#444', '#555', '#666', '#777', '#888', '#999999'];

interface Data<T> {
  data: T;
}

/**
 * The "done when" flows of issue 13 (items 5 and 6), as the original web client walks them, plus the coverage checks
 * of the whole contract, on one app.
 */
describe('the original web client: flows of issue 13', () => {
  let t: TestApp;
  let captcha: StubServer;
  let api: OriginalClient;
  const auth = (user: UserRow) => t.bearer(user.uid);

  beforeAll(async () => {
    captcha = await startStubServer(() => ({ json: { success: true } }));
    t = await createTestApp({
      now: NOW,
      env: {
        docsEnabled: true,
        captcha: { verifyUrl: captcha.url, secret: 's' },
        rateLimit: { globalPerMinute: 100_000, overrides: {} },
      },
      configuration: {
        rateLimiting: { badAuthentication: { enabled: false } },
        users: { xp: { enabled: true, gainMultiplier: 1 } },
      },
    });
    api = new OriginalClient(t);
  });
  afterAll(async () => {
    await t.close();
    await captcha.close();
  });

  describe('coverage', () => describeCoverage(() => t));

  /** Submits a result the way the client does; spacing between results comes from moving the clock. */
  async function submit(user: UserRow, overrides: Record<string, unknown> = {}) {
    t.clock.advance(5 * MINUTE);
    const res = await api.call<Data<{ insertedId: string }>>('POST /results', {
      auth: await auth(user),
      body: { result: signed(clientResult({ mode2: '15', testDuration: 15, ...overrides }), user.uid) },
    });
    expect(res.status).toBe(200);
    return res.body.data;
  }

  it('encodes queries as the original client does', () => {
    const query = { language: 'english', mode2: '15', page: 0, friendsOnly: true, status: ['accepted'] };
    expect(jsonQuery(query)).toBe(
      '?language=english&mode2=%2215%22&page=0&friendsOnly=true&status=%5B%22accepted%22%5D',
    );
    expect(jsonQuery({ language: 'english', isUid: '' }, true)).toBe('?language=%22english%22&isUid=%22%22');
  });

  it('sign-up: the name check, POST /users/signup, the first GET /users, and the verification-mail button', async () => {
    const uid = `compat-flow-${process.pid}`;
    const token = await t.bearer(uid, { email: 'flow@example.test' });
    expectOk(
      await api.call('GET /users/checkName/:name', { params: { name: 'FlowUser' } }),
      'Check username',
      obj({ available: lit(true) }),
    );
    expectOk(
      await api.call('POST /users/signup', {
        auth: token,
        body: { name: 'FlowUser', email: 'flow@example.test', captcha: 'captcha-token' },
      }),
      'User created',
    );
    const user = await api.call('GET /users', { auth: token });
    expectOk(user, 'User data retrieved', USER);
    expect(user.body.data).toMatchObject({ uid, name: 'FlowUser', email: 'flow@example.test' });
    // With Firebase the client's button sends a mail; with an OIDC provider the provider verifies addresses itself,
    // and the client shows this message (no 404, no 5xx).
    expectAnswer(
      await api.call('GET /users/verificationEmail', { auth: token }),
      400,
      'Email verification is handled by the identity provider: use its verification mail or account page to verify your address.',
      'null',
    );
  });

  it('leaderboard pages load with JSON-encoded queries: all-time, daily, weekly XP, friends-only, rank widgets', async () => {
    const [ann, ben, cat] = await Promise.all([0, 1, 2].map(() => createUser(t.db, { timeTyping: 10_000 })));
    await seedPb(t, ann!.uid, { mode2: '15', wpm: 130 });
    await seedPb(t, ben!.uid, { mode2: '15', wpm: 110 });
    await seedPb(t, cat!.uid, { mode2: '15', wpm: 150 });
    await seedPb(t, ann!.uid, { mode2: '60', wpm: 100 });
    await rebuild(t);
    // ann and ben are friends; cat is a stranger.
    const request = await api.call<Data<{ _id: string }>>('POST /connections', {
      auth: await auth(ann!),
      body: { receiverName: ben!.name },
    });
    await api.call('PATCH /connections/:id', {
      auth: await auth(ben!),
      params: { id: request.body.data._id },
      body: { status: 'accepted' },
    });
    await submit(ann!, { wpm: 90 });
    await submit(ben!, { wpm: 95 });

    const lb = { language: 'english', mode: 'time' };
    for (const mode2 of ['15', '60']) {
      const page = await api.call('GET /leaderboards', { query: { ...lb, mode2, page: 0, pageSize: 50 } });
      expectOk(
        page,
        'Leaderboard retrieved',
        obj({ count: 'int', entries: arrayOf(LEADERBOARD_ENTRY), pageSize: 'int' }),
      );
    }
    const allTime = await api.call<Data<{ entries: { uid: string; rank: number }[] }>>('GET /leaderboards', {
      query: { ...lb, mode2: '15', page: 0, pageSize: 50 },
    });
    expect(allTime.body.data.entries.map((e) => [e.uid, e.rank])).toEqual([
      [cat!.uid, 1],
      [ann!.uid, 2],
      [ben!.uid, 3],
    ]);

    // Every value JSON-stringified (strings too) reads the same board.
    const quoted = await api.call('GET /leaderboards', {
      query: { ...lb, mode2: '15', page: 0, pageSize: 50 },
      quoteStrings: true,
    });
    expect(quoted.body).toEqual(allTime.body);

    const friends = await api.call<
      Data<{ entries: { uid: string; rank: number; friendsRank?: number; globalRank?: number }[] }>
    >('GET /leaderboards', {
      auth: await auth(ben!),
      query: { ...lb, mode2: '15', page: 0, pageSize: 50, friendsOnly: true },
    });
    expectOk(
      friends,
      'Leaderboard retrieved',
      obj({ count: lit(2), entries: arrayOf(LEADERBOARD_ENTRY, 2), pageSize: 'int' }),
    );
    // The client shows `friendsRank` on a friends board (as the original); `rank` is also the friends place here
    // and `globalRank` the board's (docs/decisions/0021-daily-and-weekly-boards.md).
    expect(friends.body.data.entries.map((e) => [e.uid, e.friendsRank, e.rank, e.globalRank])).toEqual([
      [ann!.uid, 1, 1, 2],
      [ben!.uid, 2, 2, 3],
    ]);

    const rank = await api.call('GET /leaderboards/rank', {
      auth: await auth(ben!),
      query: { ...lb, mode2: '15' },
    });
    expectOk(rank, 'Rank retrieved', LEADERBOARD_ENTRY);
    expect(rank.body.data).toMatchObject({ uid: ben!.uid, rank: 3 });

    const daily = await api.call('GET /leaderboards/daily', {
      query: { ...lb, mode2: '15', page: 0, pageSize: 50 },
    });
    expectOk(
      daily,
      'Daily leaderboard retrieved',
      obj({ entries: arrayOf(LEADERBOARD_ENTRY, 2), count: lit(2), minWpm: lit(90), pageSize: lit(50) }),
    );
    const yesterday = await api.call('GET /leaderboards/daily', {
      query: { ...lb, mode2: '15', daysBefore: 1, page: 0, pageSize: 50 },
    });
    expectOk(
      yesterday,
      'Daily leaderboard retrieved',
      obj({ entries: arrayOf(LEADERBOARD_ENTRY, 0), count: lit(0), minWpm: 'number', pageSize: lit(50) }),
    );
    const dailyRank = await api.call('GET /leaderboards/daily/rank', {
      auth: await auth(ann!),
      query: { ...lb, mode2: '15' },
    });
    expectOk(dailyRank, 'Daily leaderboard rank retrieved', LEADERBOARD_ENTRY);
    expect(dailyRank.body.data).toMatchObject({ uid: ann!.uid, rank: 2, wpm: 90 });
    const dailyFriends = await api.call('GET /leaderboards/daily', {
      auth: await auth(ann!),
      query: { ...lb, mode2: '15', page: 0, pageSize: 50, friendsOnly: true },
    });
    expect(dailyFriends.status).toBe(200);

    const weekly = await api.call('GET /leaderboards/xp/weekly', { query: { page: 0, pageSize: 50 } });
    expectOk(
      weekly,
      'Weekly xp leaderboard retrieved',
      obj({ entries: arrayOf(XP_LEADERBOARD_ENTRY, 2), count: lit(2), pageSize: lit(50) }),
    );
    const lastWeek = await api.call('GET /leaderboards/xp/weekly', { query: { weeksBefore: 1, page: 0 } });
    expectOk(
      lastWeek,
      'Weekly xp leaderboard retrieved',
      obj({ entries: arrayOf(XP_LEADERBOARD_ENTRY, 0), count: lit(0), pageSize: 'int' }),
    );
    const weeklyFriends = await api.call('GET /leaderboards/xp/weekly', {
      auth: await auth(cat!),
      query: { page: 0, pageSize: 50, friendsOnly: true },
    });
    expectOk(
      weeklyFriends,
      'Weekly xp leaderboard retrieved',
      obj({ entries: arrayOf(XP_LEADERBOARD_ENTRY, 0), count: lit(0), pageSize: lit(50) }),
    );
    const weeklyRank = await api.call('GET /leaderboards/xp/weekly/rank', {
      auth: await auth(ben!),
      query: { friendsOnly: false },
    });
    expectOk(weeklyRank, 'Weekly xp leaderboard rank retrieved', XP_LEADERBOARD_ENTRY);
    const noRank = await api.call('GET /leaderboards/xp/weekly/rank', { auth: await auth(cat!), query: {} });
    expectOk(noRank, 'Weekly xp leaderboard rank retrieved', 'null');
  });

  it('custom themes save and load as the array of 10 colours (own list and GET /users)', async () => {
    const user = await createUser(t.db);
    const added = await api.call<Data<{ _id: string }>>('POST /users/customThemes', {
      auth: await auth(user),
      body: { name: 'night', colors: THEME },
    });
    expectOk(added, 'Custom theme added', obj({ _id: 'string', name: lit('night') }));
    const theme = { _id: added.body.data._id, name: 'night', colors: THEME };
    const list = await api.call('GET /users/customThemes', { auth: await auth(user) });
    expect(list.body.data).toEqual([theme]);
    const account = await api.call<Data<{ customThemes: unknown[] }>>('GET /users', {
      auth: await auth(user),
    });
    expect(account.body.data.customThemes).toEqual([theme]);
  });

  it('result tags edit: PATCH /results/tags, then the result carries the new tags', async () => {
    const user = await createUser(t.db);
    const { insertedId } = await submit(user);
    const tags: string[] = [];
    for (const tagName of ['warmup', 'focus']) {
      const res = await api.call<Data<{ _id: string }>>('POST /users/tags', {
        auth: await auth(user),
        body: { tagName },
      });
      tags.push(res.body.data._id);
    }
    const edit = await api.call('PATCH /results/tags', {
      auth: await auth(user),
      body: { tagIds: tags, resultId: insertedId },
    });
    expectOk(edit, 'Result tags updated', obj({ tagPbs: arrayOf('string') }));
    expect(edit.body.data).toEqual({ tagPbs: tags });
    const result = await api.call<Data<{ tags: string[] }>>('GET /results/id/:resultId', {
      auth: await auth(user),
      params: { resultId: insertedId },
    });
    expect(result.body.data.tags).toEqual(tags);
    const cleared = await api.call('PATCH /results/tags', {
      auth: await auth(user),
      body: { tagIds: [], resultId: insertedId },
    });
    expectOk(cleared, 'Result tags updated', obj({ tagPbs: arrayOf('string', 0) }));
  });

  it('quote rating: POST /quotes/rating then GET /quotes/rating (JSON query), then a change of mind', async () => {
    const [first, second] = [await createUser(t.db), await createUser(t.db)];
    const rating = async (user: UserRow, value: number) =>
      api.call('POST /quotes/rating', {
        auth: await auth(user),
        body: { quoteId: 12, language: 'english', rating: value },
      });
    expectOk(await rating(first, 5), 'Rating submitted');
    expectOk(await rating(second, 2), 'Rating submitted');
    const read = async () =>
      api.call('GET /quotes/rating', {
        auth: await auth(first),
        query: { quoteId: 12, language: 'english' },
      });
    expect((await read()).body.data).toMatchObject({
      quoteId: 12,
      language: 'english',
      ratings: 2,
      totalRating: 7,
      average: 3.5,
    });
    expectOk(await rating(first, 3), 'Rating updated');
    expect((await read()).body.data).toMatchObject({ ratings: 2, totalRating: 5, average: 2.5 });
  });

  it('filter presets: POST /users/resultFilterPresets, GET /users shows it, DELETE removes it', async () => {
    const user = await createUser(t.db);
    const preset = {
      _id: newId(),
      name: 'only_time',
      pb: { no: true, yes: true },
      difficulty: { normal: true, expert: false, master: false },
      mode: { time: true, words: false, quote: false, zen: false, custom: false },
      words: { '10': false, '25': false, '50': false, '100': false, custom: false },
      time: { '15': true, '30': false, '60': true, '120': false, custom: false },
      quoteLength: { short: false, medium: false, long: false, thicc: false },
      punctuation: { on: false, off: true },
      numbers: { on: false, off: true },
      date: { last_day: false, last_week: true, last_month: false, last_3months: false, all: false },
      tags: { none: true },
      language: { english: true },
      funbox: { none: true },
    };
    const created = await api.call<Data<string>>('POST /users/resultFilterPresets', {
      auth: await auth(user),
      body: preset,
    });
    expectOk(created, 'Result filter preset created', 'string');
    const id = created.body.data;
    expect(id).not.toBe(preset._id);
    const account = await api.call('GET /users', { auth: await auth(user) });
    expectOk(account, 'User data retrieved', USER);
    expect((account.body.data as { resultFilterPresets: unknown }).resultFilterPresets).toEqual([
      { ...preset, _id: id },
    ]);
    expectOk(
      await api.call('DELETE /users/resultFilterPresets/:presetId', {
        auth: await auth(user),
        params: { presetId: id },
      }),
      'Result filter preset deleted',
    );
    const after = await api.call<Data<{ resultFilterPresets: unknown[] }>>('GET /users', {
      auth: await auth(user),
    });
    expect(after.body.data.resultFilterPresets).toEqual([]);
  });

  it('account reset of personal bests: DELETE /users/personalBests empties them everywhere the client reads them', async () => {
    const user = await createUser(t.db, { timeTyping: 10_000 });
    await submit(user, { wpm: 70 });
    const before = await api.call('GET /users/personalBests', {
      auth: await auth(user),
      query: { mode: 'time', mode2: '15' },
    });
    expect(before.body.data).toEqual([expect.objectContaining({ wpm: 70 })]);

    expectOk(await api.call('DELETE /users/personalBests', { auth: await auth(user) }), "User's PB cleared");

    const one = await api.call('GET /users/personalBests', {
      auth: await auth(user),
      query: { mode: 'time', mode2: '15' },
    });
    expectOk(one, 'Personal bests retrieved', 'null');
    const all = await api.call('GET /users/personalBests', {
      auth: await auth(user),
      query: { mode: 'time' },
    });
    expectOk(all, 'Personal bests retrieved', obj({}));
    const account = await api.call<Data<{ personalBests: unknown }>>('GET /users', {
      auth: await auth(user),
    });
    expect(account.body.data.personalBests).toEqual({ time: {}, words: {}, quote: {}, zen: {}, custom: {} });
    const profile = await api.call('GET /users/:uidOrName/profile', { params: { uidOrName: user.name } });
    expect(profile.body.data).toMatchObject({ personalBests: { time: {}, words: {} } });
  });
});
