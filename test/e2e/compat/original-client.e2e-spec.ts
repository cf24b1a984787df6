import { createHmac } from 'node:crypto';
import { newId } from '../../../src/common/ids';
import { IdentityProvider } from '../../../src/common/auth/identity-provider';
import { createUser } from '../../support/factories';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';
import { rebuild, seedPb } from '../leaderboards/support';
import { clientResult, signed } from '../results/result-factory';
import { expectAnswer, expectOk, OriginalClient } from './client';
import { ORIGINAL_ROUTES } from './original-routes';
import {
  APE_KEY,
  CONNECTION,
  CUSTOM_THEME,
  FRIEND,
  LEADERBOARD_ENTRY,
  MAIL,
  MINIFIED_RESULT,
  PERSONAL_BEST,
  PRESET,
  PROFILE,
  PSA,
  QUOTE_RATING,
  QUOTE_SUBMISSION,
  RESULT,
  STREAK,
  TAG,
  TEST_ACTIVITY,
  USER,
  XP_LEADERBOARD_ENTRY,
} from './original-shapes';
import { arrayOf, lit, loose, nullable, obj, opt, record, type Shape } from './shape';

const APE_KEY_FIELDS: Record<string, Shape> = {
  name: 'string',
  enabled: 'boolean',
  createdOn: 'int',
  modifiedOn: 'int',
};

const WEBHOOK_SECRET = 'compat-webhook-secret';
const NOW = Date.UTC(2026, 10, 24, 12, 0); // a Tuesday
const MINUTE = 60_000;

// The original client's custom theme colours: an array of 10 hex strings (bg, main, caret, sub, subAlt, text, error,
// errorExtra, colorfulError, colorfulErrorExtra).
const THEME_COLORS = [
  '#323437',
  '#e2b714',
  '#e2b714',
  '#646669',
  '#2c2e31',
  '#d1d0c5',
  '#ca4754',
  '#7e2a33',
  '#ca4754',
  '#7e2a33',
];

/** A result filter preset as the client's "save filters" button sends it (§12.9: every key, client-side `_id`). */
const filterPreset = (name: string) => ({
  _id: newId(),
  name,
  pb: { no: true, yes: true },
  difficulty: { normal: true, expert: true, master: true },
  mode: { words: true, time: true, quote: true, zen: true, custom: true },
  words: { '10': true, '25': true, '50': true, '100': true, custom: true },
  time: { '15': true, '30': true, '60': true, '120': true, custom: true },
  quoteLength: { short: true, medium: true, long: true, thicc: true },
  punctuation: { on: true, off: true },
  numbers: { on: true, off: true },
  date: { last_day: false, last_week: false, last_month: false, last_3months: false, all: true },
  tags: { none: true },
  language: { english: true },
  funbox: { none: true },
});

const QUOTE_TEXT =
  'The quick brown fox jumps over the lazy dog, and then it keeps running far into the quiet evening hills.';

/**
 * Every route of the original contract, called once the way the original web client (or an ApeKey script) calls it,
 * checked for status, exact message and the whole shape of `data` (contract facts §7-§12). Runs as one sequential
 * story on one app: later calls use what earlier ones created.
 */
describe('the original web client against our API (every original route)', () => {
  let t: TestApp;
  let stub: StubServer;
  let api: OriginalClient;
  const users: Record<'alice' | 'bob' | 'admin' | 'mod', { uid: string; name: string; email: string }> =
    {} as never;
  const bearer = (who: keyof typeof users) => t.bearer(users[who].uid);
  let apeKey: string;
  const ids = { tag: '', result: '', connection: '' };

  beforeAll(async () => {
    // One stub for both third parties: the captcha verifier and the chat platform's (Discord-compatible) API.
    stub = await startStubServer((req) =>
      req.path.startsWith('/api/users/@me')
        ? { json: { id: '123456789012345678', username: 'alice', avatar: 'a1b2c3' } }
        : { json: { success: true } },
    );
    t = await createTestApp({
      now: NOW,
      env: {
        githubWebhookSecret: WEBHOOK_SECRET,
        captcha: { verifyUrl: stub.url, secret: 's' },
        chat: {
          authorizeUrl: `${stub.url}/oauth2/authorize`,
          apiUrl: `${stub.url}/api`,
          clientId: 'client-123',
          redirectUri: 'https://typing.example/verify',
        },
        rateLimit: {
          globalPerMinute: 100_000,
          overrides: { adminLimit: { max: 1000 }, webhookLimit: { max: 1000 } },
        },
      },
      configuration: {
        apeKeys: { apeKeySaltRounds: 4 },
        rateLimiting: { badAuthentication: { enabled: false } },
        users: {
          premium: { enabled: true },
          xp: { enabled: true, gainMultiplier: 1 },
        },
      },
    });
    api = new OriginalClient(t);
    users.alice = await createUser(t.db, {
      timeTyping: 10_000,
      premiumExpiresAt: NOW + 365 * 24 * 60 * MINUTE,
    });
    users.bob = await createUser(t.db, { timeTyping: 10_000 });
    users.admin = await createUser(t.db, { permissions: ['admin'] });
    users.mod = await createUser(t.db, { permissions: ['quoteMod'] });
    // Premium granted the way operators grant it: a start and an expiry.
    await t.db
      .updateTable('users')
      .set({ premium_start_at: NOW - MINUTE })
      .where('uid', '=', users.alice.uid)
      .execute();
    await seedPb(t, users.bob.uid, { wpm: 120, timestamp: NOW - 60 * MINUTE });
    await rebuild(t);
    await t.db
      .insertInto('psas')
      .values({
        id: newId(),
        message: 'Scheduled maintenance',
        date: NOW,
        level: 1,
        sticky: true,
        created_at: NOW,
      })
      .execute();
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  describe('status, configuration, announcements, public stats, docs', () => {
    it('GET / answers the API status', async () => {
      const res = await api.call('GET /');
      expectOk(res, 'ok', obj({ uptime: 'number', version: 'string' }));
    });

    it('GET /configuration, PATCH /configuration (admin), GET /configuration/schema (admin)', async () => {
      const conf = await api.call('GET /configuration');
      expectOk(
        conf,
        'Configuration retrieved',
        loose({
          maintenance: 'boolean',
          results: loose({}),
          users: loose({}),
          apeKeys: loose({}),
          leaderboards: loose({}),
          dailyLeaderboards: loose({}),
          quotes: loose({}),
          admin: loose({}),
          connections: loose({}),
        }),
      );
      const patch = await api.call('PATCH /configuration', {
        auth: await bearer('admin'),
        body: { configuration: { quotes: { maxFavorites: 100 } } },
      });
      expectOk(patch, 'Configuration updated');
      const schema = await api.call('GET /configuration/schema', { auth: await bearer('admin') });
      expectOk(schema, 'Configuration schema retrieved', loose({}));
    });

    it('GET /psas', async () => {
      const res = await api.call('GET /psas');
      expectOk(res, 'PSAs retrieved', arrayOf(PSA));
      expect(res.body.data).toEqual([
        expect.objectContaining({ message: 'Scheduled maintenance', sticky: true }),
      ]);
    });

    it('GET /public/speedHistogram (JSON query) and GET /public/typingStats', async () => {
      const histogram = await api.call('GET /public/speedHistogram', {
        query: { language: 'english', mode: 'time', mode2: '15' },
      });
      expectOk(histogram, 'Public speed histogram retrieved', record('int', /^\d+$/));
      expect(histogram.body.data).toEqual({ '120': 1 });
      const stats = await api.call('GET /public/typingStats');
      expectOk(
        stats,
        'Public typing stats retrieved',
        obj({ timeTyping: 'number', testsCompleted: 'int', testsStarted: 'int' }),
      );
    });

    it('GET /docs, /docs/public, /docs/internal, /docs/public.json, /docs/internal.json', async () => {
      const page = await api.call('GET /docs');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/text\/html/);
      for (const route of ['GET /docs/public', 'GET /docs/internal']) {
        const res = await api.call(route);
        expect({ route, status: res.status, location: res.headers.location }).toEqual({
          route,
          status: 302,
          location: '/docs',
        });
      }
      for (const route of ['GET /docs/public.json', 'GET /docs/internal.json']) {
        const res = await api.call(route);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ openapi: expect.any(String), paths: expect.any(Object) });
      }
    });
  });

  describe('sign-up and account', () => {
    it('POST /users/signup with a token of a new identity, then GET /users/checkName/:name', async () => {
      const uid = `compat-signup-${process.pid}`;
      const res = await api.call('POST /users/signup', {
        auth: await t.bearer(uid, { email: 'newcomer@example.test' }),
        body: { name: 'Newcomer', email: 'newcomer@example.test', uid, captcha: 'captcha-token' },
      });
      expectOk(res, 'User created');
      const taken = await api.call('GET /users/checkName/:name', { params: { name: 'newcomer' } });
      expectOk(taken, 'Check username', obj({ available: lit(false) }));
    });

    it('GET /users/verificationEmail: the OIDC provider verifies addresses itself (documented 400)', async () => {
      const res = await api.call('GET /users/verificationEmail', { auth: await bearer('alice') });
      expectAnswer(
        res,
        400,
        'Email verification is handled by the identity provider: use its verification mail or account page to verify your address.',
        'null',
      );
    });

    it('POST /users/forgotPasswordEmail never says whether the address exists', async () => {
      const res = await api.call('POST /users/forgotPasswordEmail', {
        body: { email: 'nobody@example.test', captcha: 'captcha-token' },
      });
      expectOk(
        res,
        'Password reset request received. If the email is valid, you will receive an email shortly.',
      );
    });

    it('PATCH /users/name, /users/email, /users/password and POST /users/revokeAllTokens (fresh tokens)', async () => {
      const renamer = await createUser(t.db);
      expectOk(
        await api.call('PATCH /users/name', {
          auth: await t.bearer(renamer.uid),
          body: { name: 'Renamed_1' },
        }),
        "User's name updated",
      );
      const mover = await createUser(t.db);
      expectOk(
        await api.call('PATCH /users/email', {
          auth: await t.bearer(mover.uid),
          body: { newEmail: 'moved@example.test', previousEmail: mover.email },
        }),
        'Email updated',
      );
      const changer = await createUser(t.db);
      expectOk(
        await api.call('PATCH /users/password', {
          auth: await t.bearer(changer.uid),
          body: { newPassword: 'a-new-password' },
        }),
        'Password updated',
      );
      const revoker = await createUser(t.db);
      expectOk(
        await api.call('POST /users/revokeAllTokens', { auth: await t.bearer(revoker.uid) }),
        'All tokens revoked',
      );
    });

    it('POST /users/optOutOfLeaderboards, PATCH /users/reset, DELETE /users (fresh tokens)', async () => {
      const leaver = await createUser(t.db);
      expectOk(
        await api.call('POST /users/optOutOfLeaderboards', { auth: await t.bearer(leaver.uid) }),
        'User opted out of leaderboards',
      );
      const resetter = await createUser(t.db);
      expectOk(await api.call('PATCH /users/reset', { auth: await t.bearer(resetter.uid) }), 'User reset');
      const deleter = await createUser(t.db);
      expectOk(await api.call('DELETE /users', { auth: await t.bearer(deleter.uid) }), 'User deleted');
    });
  });

  describe('ApeKeys', () => {
    it('POST, GET, PATCH, DELETE /ape-keys', async () => {
      const auth = await bearer('alice');
      const created = await api.call<{ data: { apeKeyId: string; apeKey: string } }>('POST /ape-keys', {
        auth,
        body: { name: 'script', enabled: true },
      });
      expectOk(
        created,
        // The spec's text wins over the original's "ApeKey generated" (contract facts §10.3 [differs]); the client
        // only displays it.
        'Ape Key generated',
        obj({
          apeKeyId: 'string',
          apeKey: 'string',
          apeKeyDetails: obj({ ...APE_KEY_FIELDS, lastUsedOn: lit(-1) }),
        }),
      );
      apeKey = `ApeKey ${created.body.data.apeKey}`;
      const list = await api.call('GET /ape-keys', { auth });
      expectOk(list, 'ApeKeys retrieved', record(APE_KEY));
      expect(Object.keys(list.body.data as object)).toEqual([created.body.data.apeKeyId]);

      const spare = await api.call<{ data: { apeKeyId: string } }>('POST /ape-keys', {
        auth,
        body: { name: 'spare', enabled: false },
      });
      const params = { apeKeyId: spare.body.data.apeKeyId };
      expectOk(
        await api.call('PATCH /ape-keys/:apeKeyId', {
          auth,
          params,
          body: { name: 'renamed', enabled: true },
        }),
        'ApeKey updated',
      );
      expectOk(await api.call('DELETE /ape-keys/:apeKeyId', { auth, params }), 'ApeKey deleted');
    });
  });

  describe('tags, results, personal bests', () => {
    it('POST, GET (also with an ApeKey), PATCH /users/tags', async () => {
      const auth = await bearer('alice');
      const created = await api.call<{ data: { _id: string } }>('POST /users/tags', {
        auth,
        body: { tagName: 'practice' },
      });
      expectOk(created, 'Tag updated', TAG);
      ids.tag = created.body.data._id;
      expectOk(
        await api.call('PATCH /users/tags', { auth, body: { tagId: ids.tag, newName: 'drills' } }),
        'Tag updated',
      );
      for (const key of [auth, apeKey]) {
        const list = await api.call('GET /users/tags', { auth: key });
        expectOk(list, 'Tags retrieved', arrayOf(TAG));
        expect(list.body.data).toEqual([expect.objectContaining({ _id: ids.tag, name: 'drills' })]);
      }
    });

    it('POST /results with a signed CompletedEvent (§12.8)', async () => {
      const result = clientResult({ mode2: '15', testDuration: 15, wpm: 100, rawWpm: 102, tags: [ids.tag] });
      const res = await api.call<{ data: { insertedId: string } }>('POST /results', {
        auth: await bearer('alice'),
        body: { result: signed(result, users.alice.uid) },
      });
      expectOk(
        res,
        'Result saved',
        obj({
          isPb: lit(true),
          tagPbs: arrayOf('string'),
          insertedId: 'string',
          xp: 'int',
          dailyXpBonus: 'boolean',
          xpBreakdown: record('number'),
          streak: 'int',
          dailyLeaderboardRank: opt('int'),
          weeklyXpLeaderboardRank: opt('int'),
        }),
      );
      expect(res.body.data).toMatchObject({
        tagPbs: [ids.tag],
        dailyLeaderboardRank: 1,
        weeklyXpLeaderboardRank: 1,
      });
      ids.result = res.body.data.insertedId;
    });

    it('GET /results, /results/id/:resultId, /results/last with Bearer and with an ApeKey', async () => {
      for (const auth of [await bearer('alice'), apeKey]) {
        const list = await api.call('GET /results', {
          auth,
          query: { onOrAfterTimestamp: NOW - MINUTE, limit: 10 },
        });
        expectOk(list, 'Results retrieved', arrayOf(MINIFIED_RESULT, 1));
        const one = await api.call('GET /results/id/:resultId', { auth, params: { resultId: ids.result } });
        expectOk(one, 'Result retrieved', RESULT);
        const last = await api.call('GET /results/last', { auth });
        expectOk(last, 'Result retrieved', RESULT);
        expect(last.body.data).toEqual(one.body.data);
      }
    });

    it('PATCH /results/tags', async () => {
      const res = await api.call('PATCH /results/tags', {
        auth: await bearer('alice'),
        body: { tagIds: [ids.tag], resultId: ids.result },
      });
      expectOk(res, 'Result tags updated', obj({ tagPbs: arrayOf('string') }));
    });

    it('GET /users/personalBests (JSON query, also with an ApeKey), DELETE /users/tags/:tagId/personalBest', async () => {
      for (const auth of [await bearer('alice'), apeKey]) {
        const one = await api.call('GET /users/personalBests', {
          auth,
          query: { mode: 'time', mode2: '15' },
        });
        expectOk(one, 'Personal bests retrieved', arrayOf(PERSONAL_BEST, 1));
        const all = await api.call('GET /users/personalBests', { auth, query: { mode: 'time' } });
        expectOk(all, 'Personal bests retrieved', record(arrayOf(PERSONAL_BEST)));
      }
      const cleared = await api.call('DELETE /users/tags/:tagId/personalBest', {
        auth: await bearer('alice'),
        params: { tagId: ids.tag },
      });
      expectOk(cleared, 'Tag PB cleared');
    });

    it('GET /users/stats, /users/streak, /users/currentTestActivity (also with an ApeKey), /users/testActivity', async () => {
      for (const auth of [await bearer('alice'), apeKey]) {
        const stats = await api.call('GET /users/stats', { auth });
        expectOk(
          stats,
          'Personal stats retrieved',
          obj({ completedTests: opt('int'), startedTests: opt('int'), timeTyping: opt('number') }),
        );
        expectOk(await api.call('GET /users/streak', { auth }), 'Streak data retrieved', STREAK);
        expectOk(
          await api.call('GET /users/currentTestActivity', { auth }),
          'Current test activity data retrieved',
          TEST_ACTIVITY,
        );
      }
      const yearly = await api.call('GET /users/testActivity', { auth: await bearer('alice') });
      expectOk(yearly, 'Test activity data retrieved', record(arrayOf(nullable('int')), /^\d{4}$/));
    });

    it('POST /users/setStreakHourOffset', async () => {
      const res = await api.call('POST /users/setStreakHourOffset', {
        auth: await bearer('alice'),
        body: { hourOffset: -1.5 },
      });
      expectOk(res, 'Streak hour offset set');
    });
  });

  describe('connections and friends', () => {
    it('POST, PATCH, GET /connections and GET /users/friends', async () => {
      const created = await api.call<{ data: { _id: string } }>('POST /connections', {
        auth: await bearer('alice'),
        body: { receiverName: users.bob.name },
      });
      expectOk(created, 'Connection created', CONNECTION);
      ids.connection = created.body.data._id;
      const accepted = await api.call('PATCH /connections/:id', {
        auth: await bearer('bob'),
        params: { id: ids.connection },
        body: { status: 'accepted' },
      });
      expectOk(accepted, 'Connection updated');
      const list = await api.call('GET /connections', {
        auth: await bearer('alice'),
        query: { status: ['accepted'], type: ['incoming', 'outgoing'] },
      });
      expectOk(list, 'Connections retrieved', arrayOf(CONNECTION, 1));
      const friends = await api.call('GET /users/friends', { auth: await bearer('alice') });
      expectOk(friends, 'Friends retrieved', arrayOf(FRIEND, 2));
    });
  });

  describe('leaderboards (JSON-encoded queries)', () => {
    const board = { language: 'english', mode: 'time', mode2: '15' };

    it('GET /leaderboards and /leaderboards/rank (also with an ApeKey)', async () => {
      const page = await api.call('GET /leaderboards', { query: { ...board, page: 0, pageSize: 50 } });
      expectOk(
        page,
        'Leaderboard retrieved',
        obj({ count: 'int', entries: arrayOf(LEADERBOARD_ENTRY, 1), pageSize: lit(50) }),
      );
      for (const auth of [await bearer('bob'), await apeKeyOf('bob')]) {
        const rank = await api.call('GET /leaderboards/rank', { auth, query: board });
        expectOk(rank, 'Rank retrieved', LEADERBOARD_ENTRY);
      }
    });

    it('GET /leaderboards/daily and /leaderboards/daily/rank', async () => {
      const page = await api.call('GET /leaderboards/daily', { query: { ...board, page: 0, pageSize: 50 } });
      expectOk(
        page,
        'Daily leaderboard retrieved',
        obj({ entries: arrayOf(LEADERBOARD_ENTRY, 1), count: 'int', minWpm: 'number', pageSize: lit(50) }),
      );
      const rank = await api.call('GET /leaderboards/daily/rank', {
        auth: await bearer('alice'),
        query: board,
      });
      expectOk(rank, 'Daily leaderboard rank retrieved', LEADERBOARD_ENTRY);
    });

    it('GET /leaderboards/xp/weekly and /leaderboards/xp/weekly/rank', async () => {
      const page = await api.call('GET /leaderboards/xp/weekly', { query: { page: 0, pageSize: 50 } });
      expectOk(
        page,
        'Weekly xp leaderboard retrieved',
        obj({ entries: arrayOf(XP_LEADERBOARD_ENTRY, 1), count: 'int', pageSize: lit(50) }),
      );
      const rank = await api.call('GET /leaderboards/xp/weekly/rank', {
        auth: await bearer('alice'),
        query: {},
      });
      expectOk(rank, 'Weekly xp leaderboard rank retrieved', XP_LEADERBOARD_ENTRY);
    });
  });

  describe('profile, themes, favourites, filter presets, leaderboard memory', () => {
    it('PATCH /users/profile answers exactly the sanitised update; GET /users/:uidOrName/profile', async () => {
      const update = await api.call('PATCH /users/profile', {
        auth: await bearer('alice'),
        body: {
          bio: 'I type',
          keyboard: 'split',
          socialProfiles: { twitter: 'alice', github: 'alice', website: 'https://alice.example' },
          showActivityOnPublicProfile: true,
        },
      });
      expectOk(
        update,
        'Profile updated',
        obj({
          bio: lit('I type'),
          keyboard: lit('split'),
          socialProfiles: obj({
            twitter: lit('alice'),
            github: lit('alice'),
            website: lit('https://alice.example'),
          }),
          showActivityOnPublicProfile: lit(true),
        }),
      );
      const profile = await api.call('GET /users/:uidOrName/profile', {
        params: { uidOrName: users.alice.name },
      });
      expectOk(profile, 'Profile retrieved', PROFILE);
      expect(profile.body.data).toMatchObject({ uid: users.alice.uid, details: { bio: 'I type' } });
    });

    it('POST, GET, PATCH, DELETE /users/customThemes with the array of 10 colours', async () => {
      const auth = await bearer('alice');
      const added = await api.call<{ data: { _id: string } }>('POST /users/customThemes', {
        auth,
        body: { name: 'mine', colors: THEME_COLORS },
      });
      expectOk(added, 'Custom theme added', obj({ _id: 'string', name: lit('mine') }));
      const themeId = added.body.data._id;
      const edited = [...THEME_COLORS].reverse();
      expectOk(
        await api.call('PATCH /users/customThemes', {
          auth,
          body: { themeId, theme: { name: 'mine_2', colors: edited } },
        }),
        'Custom theme updated',
      );
      const list = await api.call('GET /users/customThemes', { auth });
      expectOk(list, 'Custom themes retrieved', arrayOf(CUSTOM_THEME, 1));
      expect(list.body.data).toEqual([{ _id: themeId, name: 'mine_2', colors: edited }]);
      expectOk(
        await api.call('DELETE /users/customThemes', { auth, body: { themeId } }),
        'Custom theme removed',
      );
    });

    it('POST, GET, DELETE /users/favoriteQuotes', async () => {
      const auth = await bearer('alice');
      const body = { language: 'english', quoteId: '42' };
      expectOk(await api.call('POST /users/favoriteQuotes', { auth, body }), 'Quote added to favorites');
      const list = await api.call('GET /users/favoriteQuotes', { auth });
      expectOk(list, 'Favorite quotes retrieved', record(arrayOf('string')));
      expect(list.body.data).toEqual({ english: ['42'] });
      expectOk(
        await api.call('DELETE /users/favoriteQuotes', { auth, body }),
        'Quote removed from favorites',
      );
    });

    it('POST, DELETE /users/resultFilterPresets', async () => {
      const auth = await bearer('alice');
      const created = await api.call<{ data: string }>('POST /users/resultFilterPresets', {
        auth,
        body: filterPreset('spare'),
      });
      expectOk(created, 'Result filter preset created', 'string');
      const removed = await api.call('DELETE /users/resultFilterPresets/:presetId', {
        auth,
        params: { presetId: created.body.data },
      });
      expectOk(removed, 'Result filter preset deleted');
    });

    it('PATCH /users/leaderboardMemory', async () => {
      const res = await api.call('PATCH /users/leaderboardMemory', {
        auth: await bearer('alice'),
        body: { mode: 'time', mode2: '15', language: 'english', rank: 3 },
      });
      expectOk(res, 'Leaderboard memory updated');
    });

    it('GET /users/discord/oauth, POST /users/discord/link, POST /users/discord/unlink', async () => {
      const auth = await bearer('alice');
      const oauth = await api.call<{ data: { url: string } }>('GET /users/discord/oauth', { auth });
      expectOk(oauth, 'Discord oauth link generated', obj({ url: 'string' }));
      const state = new URL(oauth.body.data.url).searchParams.get('state') ?? '';
      const link = await api.call('POST /users/discord/link', {
        auth,
        body: { tokenType: 'Bearer', accessToken: 'access-token', state },
      });
      expectOk(link, 'Discord account linked', obj({ discordId: 'string', discordAvatar: 'string' }));
      expectOk(await api.call('POST /users/discord/unlink', { auth }), 'Discord account unlinked');
    });
  });

  describe('configs and presets', () => {
    it('PATCH, GET, DELETE /configs', async () => {
      const auth = await bearer('alice');
      const config = { punctuation: true, time: 60, customThemeColors: THEME_COLORS, theme: 'serika_dark' };
      expectOk(await api.call('PATCH /configs', { auth, body: config }), 'Config updated');
      const got = await api.call('GET /configs', { auth });
      expectOk(got, 'Configuration retrieved', record('any'));
      expect(got.body.data).toMatchObject(config);
      expectOk(await api.call('DELETE /configs', { auth }), 'Config deleted');
    });

    it('POST, GET, PATCH, DELETE /presets', async () => {
      const auth = await bearer('alice');
      const created = await api.call<{ data: { presetId: string } }>('POST /presets', {
        auth,
        body: { name: 'fast', config: { punctuation: true }, settingGroups: ['test'] },
      });
      expectOk(created, 'Preset created', obj({ presetId: 'string' }));
      const presetId = created.body.data.presetId;
      expectOk(
        await api.call('PATCH /presets', {
          auth,
          body: { _id: presetId, name: 'faster', config: { numbers: true } },
        }),
        'Preset updated',
      );
      const list = await api.call('GET /presets', { auth });
      expectOk(list, 'Presets retrieved', arrayOf(PRESET, 1));
      expectOk(await api.call('DELETE /presets/:presetId', { auth, params: { presetId } }), 'Preset deleted');
    });
  });

  describe('quotes', () => {
    it('GET /quotes/isSubmissionEnabled, POST /quotes, GET /quotes (quoteMod), approve and reject', async () => {
      expectOk(
        await api.call('GET /quotes/isSubmissionEnabled'),
        'Quote submission enabled',
        obj({ isEnabled: lit(true) }),
      );
      for (const source of ['a book', 'another book']) {
        const res = await api.call('POST /quotes', {
          auth: await bearer('alice'),
          body: { text: `${QUOTE_TEXT} (${source})`, source, language: 'english', captcha: 'captcha-token' },
        });
        expectOk(res, 'Quote submission added');
      }
      const queue = await api.call<{ data: { _id: string }[] }>('GET /quotes', { auth: await bearer('mod') });
      expectOk(queue, 'Quote submissions retrieved', arrayOf(QUOTE_SUBMISSION, 2));
      const [first, second] = queue.body.data;
      const approved = await api.call('POST /quotes/approve', {
        auth: await bearer('mod'),
        body: { quoteId: first!._id, editText: null, editSource: null },
      });
      expectOk(
        approved,
        'Created file english.json and added quote.',
        obj({ id: 'int', text: 'string', source: 'string', length: 'int', approvedBy: 'string' }),
      );
      expectOk(
        await api.call('POST /quotes/reject', { auth: await bearer('mod'), body: { quoteId: second!._id } }),
        'Quote refused',
      );
    });

    it('POST /quotes/rating, then GET /quotes/rating (JSON query)', async () => {
      const body = { quoteId: 7, language: 'english', rating: 4 };
      expectOk(
        await api.call('POST /quotes/rating', { auth: await bearer('alice'), body }),
        'Rating submitted',
      );
      const res = await api.call('GET /quotes/rating', {
        auth: await bearer('alice'),
        query: { quoteId: 7, language: 'english' },
      });
      expectOk(res, 'Rating retrieved', QUOTE_RATING);
      expect(res.body.data).toMatchObject({ quoteId: 7, average: 4, ratings: 1, totalRating: 4 });
    });

    it('POST /quotes/report', async () => {
      const res = await api.call('POST /quotes/report', {
        auth: await bearer('alice'),
        body: {
          quoteId: '1',
          quoteLanguage: 'english',
          reason: 'Incorrect source',
          comment: 'wrong book',
          captcha: 'captcha-token',
        },
      });
      expectOk(res, 'Quote reported');
    });
  });

  describe('reports, admin, inbox', () => {
    it('POST /users/report, then the admin accepts it and the reporter reads the mail in the inbox', async () => {
      const report = await api.call('POST /users/report', {
        auth: await bearer('alice'),
        body: { uid: users.bob.uid, reason: 'Inappropriate name', comment: 'rude', captcha: 'captcha-token' },
      });
      expectOk(report, 'User reported');
      const reportIds = (
        await t.db.selectFrom('quote_reports').select('id').where('content_id', '=', users.bob.uid).execute()
      ).map((r) => r.id);
      expect(reportIds).toHaveLength(1);
      const admin = await bearer('admin');
      expectOk(await api.call('GET /admin', { auth: admin }), 'OK');
      expectOk(
        await api.call('POST /admin/report/accept', {
          auth: admin,
          body: { reports: [{ reportId: reportIds[0] }] },
        }),
        'Reports removed and users notified.',
      );

      const inbox = await api.call<{ data: { inbox: { id: string }[] } }>('GET /users/inbox', {
        auth: await bearer('alice'),
      });
      expectOk(inbox, 'Inbox retrieved', obj({ inbox: arrayOf(MAIL, 1), maxMail: 'int' }));
      const mailId = inbox.body.data.inbox[0]!.id;
      expectOk(
        await api.call('PATCH /users/inbox', {
          auth: await bearer('alice'),
          body: { mailIdsToMarkRead: [mailId] },
        }),
        'Inbox updated',
      );
    });

    it('POST /admin/report/reject, /admin/toggleBan, /admin/clearStreakHourOffset, /admin/sendForgotPasswordEmail', async () => {
      const admin = await bearer('admin');
      const reporter = await createUser(t.db);
      await api.call('POST /users/report', {
        auth: await t.bearer(reporter.uid),
        body: { uid: users.bob.uid, reason: 'Suspected cheating', captcha: 'captcha-token' },
      });
      const row = await t.db
        .selectFrom('quote_reports')
        .select('id')
        .where('uid', '=', reporter.uid)
        .executeTakeFirstOrThrow();
      expectOk(
        await api.call('POST /admin/report/reject', {
          auth: admin,
          body: { reports: [{ reportId: row.id, reason: 'not cheating' }] },
        }),
        'Reports removed and users notified.',
      );
      const target = await createUser(t.db);
      expectOk(
        await api.call('POST /admin/toggleBan', { auth: admin, body: { uid: target.uid } }),
        'Ban toggled',
        obj({ banned: lit(true) }),
      );
      expectOk(
        await api.call('POST /admin/clearStreakHourOffset', { auth: admin, body: { uid: users.alice.uid } }),
        'Streak hour offset cleared',
      );
      // The identity provider is a third-party service: it hands out the reset link.
      jest
        .spyOn(t.app.get(IdentityProvider), 'generatePasswordResetLink')
        .mockResolvedValueOnce('https://id.example/reset?code=1');
      expectOk(
        await api.call('POST /admin/sendForgotPasswordEmail', {
          auth: admin,
          body: { email: users.bob.email },
        }),
        'Password reset request email sent.',
      );
    });
  });

  describe('webhook', () => {
    it('POST /webhooks/githubRelease with a valid signature', async () => {
      const raw = JSON.stringify({ action: 'published', release: { id: 987654, tag_name: 'v26.48.0' } });
      const signature = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(raw).digest('hex')}`;
      const res = await api.call('POST /webhooks/githubRelease', {
        rawBody: raw,
        headers: { 'x-hub-signature-256': signature, 'x-github-event': 'release' },
      });
      expectOk(res, 'Added release announcement task to queue');
    });
  });

  describe('clean-up routes', () => {
    it('DELETE /users/tags/:tagId, DELETE /connections/:id, DELETE /results (fresh)', async () => {
      expectOk(
        await api.call('DELETE /users/tags/:tagId', {
          auth: await bearer('alice'),
          params: { tagId: ids.tag },
        }),
        'Tag deleted',
      );
      expectOk(
        await api.call('DELETE /connections/:id', {
          auth: await bearer('alice'),
          params: { id: ids.connection },
        }),
        'Connection deleted',
      );
      expectOk(await api.call('DELETE /results', { auth: await bearer('alice') }), 'All results deleted');
    });

    it('DELETE /users/personalBests (fresh)', async () => {
      expectOk(
        await api.call('DELETE /users/personalBests', { auth: await bearer('alice') }),
        "User's PB cleared",
      );
    });

    it('GET /users keeps the original shape after all of that', async () => {
      expectOk(await api.call('GET /users', { auth: await bearer('alice') }), 'User data retrieved', USER);
    });
  });

  it('called every route of ORIGINAL_ROUTES, authenticated as the original client does', () => {
    // public and webhook routes without an Authorization header; ApeKey routes with a Bearer token and an ApeKey;
    // every other route with a Bearer token (admin, quoteMod, fresh: of such a user, signed in now).
    const expected = (auth: string) =>
      auth === 'public' || auth === 'github'
        ? ['none']
        : auth === 'apeKey'
          ? ['ApeKey', 'Bearer']
          : ['Bearer'];
    const wrong = ORIGINAL_ROUTES.map((r) => ({
      route: `${r.method} ${r.path}`,
      expected: expected(r.auth),
      called: [...(api.called.get(`${r.method} ${r.path}`) ?? [])].sort(),
    })).filter((r) => !r.expected.every((scheme) => r.called.includes(scheme)));
    expect(wrong).toEqual([]);
  });

  /** An ApeKey of another user, for the routes that accept one. */
  async function apeKeyOf(who: keyof typeof users): Promise<string> {
    const res = await t.request<{ data: { apeKey: string } }>('POST', '/ape-keys', {
      auth: await bearer(who),
      body: { name: `key_${who}`, enabled: true },
    });
    return `ApeKey ${res.body.data.apeKey}`;
  }
});
