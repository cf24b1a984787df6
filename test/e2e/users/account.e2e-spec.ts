import { AccountLifecycle } from '../../../src/common/account-lifecycle';
import { InboxService } from '../../../src/modules/inbox/inbox.service';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { ANY_APE_KEY, DAY_MS, insertActivity, insertPersonalBest, staleBearer } from './support';

describe('account: GET /users, name, opt-out, email, password, tokens, reset, delete', () => {
  let t: TestApp;
  const notified: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      // Many deliberate auth failures from one IP here; the ban itself is the foundation's test.
      configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
    const lifecycle = t.app.get(AccountLifecycle);
    lifecycle.afterLeaderboardOptOut('test', (uid) => Promise.resolve(void notified.push(`optOut:${uid}`)));
    lifecycle.afterReset('test', (uid) => Promise.resolve(void notified.push(`reset:${uid}`)));
    lifecycle.afterDelete('test', (uid) => Promise.resolve(void notified.push(`delete:${uid}`)));
  });
  afterAll(() => t.close());

  describe('fresh-token routes', () => {
    const routes: [string, string, unknown][] = [
      ['DELETE', '/users', undefined],
      ['PATCH', '/users/reset', undefined],
      ['PATCH', '/users/name', { name: 'FreshName' }],
      ['PATCH', '/users/email', { newEmail: 'a@b.test', previousEmail: 'c@d.test' }],
      ['PATCH', '/users/password', { newPassword: 'secret123' }],
      ['POST', '/users/revokeAllTokens', undefined],
    ];

    it.each(routes)(
      '%s %s refuses a stale token: 401 This endpoint requires a fresh token',
      async (m, url, body) => {
        const user = await createUser(t.db);
        const res = await t.request(m, url, { auth: await staleBearer(t, user.uid), body });
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ message: 'This endpoint requires a fresh token', data: null });
        expect(
          await t.db.selectFrom('users').select('name').where('uid', '=', user.uid).executeTakeFirst(),
        ).toEqual({
          name: user.name,
        });
      },
    );

    it.each(routes)(
      '%s %s refuses ApeKeys: 401 This endpoint does not accept ApeKeys',
      async (m, url, body) => {
        const res = await t.request(m, url, { auth: ANY_APE_KEY, body });
        expect(res.status).toBe(401);
        expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
      },
    );

    it.each(routes)('%s %s refuses a request without a token: 401 Unauthorized', async (m, url, body) => {
      const res = await t.request(m, url, { body });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('Unauthorized');
    });
  });

  describe('GET /users', () => {
    it('returns the User resource with every required field', async () => {
      const user = await createUser(t.db, { xp: 42 });
      await insertPersonalBest(t, user.uid, { mode: 'words', mode2: '25', wpm: 88 });
      const res = await t.request('GET', '/users', { auth: await t.bearer(user.uid) });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('User data retrieved');
      const data = res.body.data as Record<string, unknown>;
      expect(data).toMatchObject({
        uid: user.uid,
        name: user.name,
        email: user.email,
        xp: 42,
        completedTests: 0,
        startedTests: 0,
        timeTyping: 0,
        streak: { length: 0, maxLength: 0, lastResultTimestamp: 0 },
        isPremium: false,
        inboxUnreadSize: 0,
        inventory: { badges: [] },
        tags: [],
        customThemes: [],
        favoriteQuotes: {},
      });
      expect(typeof data.addedAt).toBe('number');
      expect(data.personalBests).toEqual({
        time: {},
        words: { '25': [expect.objectContaining({ wpm: 88, language: 'english', difficulty: 'normal' })] },
        quote: {},
        zen: {},
        custom: {},
      });
      expect(data.streak).not.toHaveProperty('hourOffset');
      expect(data).not.toHaveProperty('premium');
    });

    it('counts unread mail in inboxUnreadSize (0 with the inbox off)', async () => {
      const user = await createUser(t.db);
      const inbox = t.app.get(InboxService);
      for (const subject of ['a', 'b', 'c']) await inbox.send(user.uid, { subject, body: 'x' });
      await t.db.updateTable('inbox_mail').set({ read: true }).where('subject', '=', 'a').execute();
      const auth = await t.bearer(user.uid);
      expect(
        ((await t.request('GET', '/users', { auth })).body.data as { inboxUnreadSize: number })
          .inboxUnreadSize,
      ).toBe(2);
      await t.configure({ users: { inbox: { enabled: false } } });
      try {
        const off = await t.request('GET', '/users', { auth });
        expect((off.body.data as { inboxUnreadSize: number }).inboxUnreadSize).toBe(0);
      } finally {
        await t.configure({ users: { inbox: { enabled: true } } });
      }
    });

    it('reports premium per spec rules 1 and 2', async () => {
      const lifetime = await createUser(t.db, { premiumExpiresAt: -1 });
      const active = await createUser(t.db, { premiumExpiresAt: t.clock.now() + DAY_MS });
      const expired = await createUser(t.db, { premiumExpiresAt: t.clock.now() - 1 });
      const premiumOf = async (uid: string) =>
        (
          (await t.request('GET', '/users', { auth: await t.bearer(uid) })).body.data as {
            isPremium: boolean;
          }
        ).isPremium;
      expect(await premiumOf(lifetime.uid)).toBe(false);
      await t.configure({ users: { premium: { enabled: true } } });
      try {
        expect(await premiumOf(lifetime.uid)).toBe(true);
        expect(await premiumOf(active.uid)).toBe(true);
        expect(await premiumOf(expired.uid)).toBe(false);
        const res = await t.request('GET', '/users', { auth: await t.bearer(lifetime.uid) });
        expect((res.body.data as { premium: unknown }).premium).toEqual({
          startTimestamp: null,
          expirationTimestamp: -1,
        });
      } finally {
        await t.configure({ users: { premium: { enabled: false } } });
      }
    });

    it('answers an unknown user with 404 and refuses ApeKeys and missing tokens', async () => {
      const unknown = await t.request('GET', '/users', { auth: await t.bearer('nobody-here') });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: 'User not found', data: null });
      expect((await t.request('GET', '/users', { auth: ANY_APE_KEY })).status).toBe(401);
      expect((await t.request('GET', '/users')).status).toBe(401);
    });
  });

  describe('PATCH /users/name', () => {
    const rename = async (uid: string, name: unknown) =>
      t.request('PATCH', '/users/name', { auth: await t.bearer(uid), body: { name } });

    it('renames once per 30 days', async () => {
      const user = await createUser(t.db, { name: 'OldName1' });
      const res = await rename(user.uid, 'NewName1');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: "User's name updated", data: null });
      const row = await t.db
        .selectFrom('users')
        .select(['name', 'last_name_change_at'])
        .where('uid', '=', user.uid)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'NewName1', last_name_change_at: t.clock.now() });

      t.clock.advance(30 * DAY_MS - 1000);
      const early = await rename(user.uid, 'NewName2');
      expect(early.status).toBe(409);
      expect(early.body.message).toBe('You can change your name once every 30 days');
      t.clock.advance(1000);
      expect((await rename(user.uid, 'NewName2')).status).toBe(200);
    });

    it('refuses a name taken by someone else in any case: 409 Username already taken', async () => {
      await createUser(t.db, { name: 'Holder' });
      const user = await createUser(t.db);
      const res = await rename(user.uid, 'hOLDER');
      expect(res.status).toBe(409);
      expect(res.body.message).toBe('Username already taken');
    });

    it('allows a change of letter case of the own name, refuses the identical name', async () => {
      const user = await createUser(t.db, { name: 'casey' });
      const same = await rename(user.uid, 'casey');
      expect(same.status).toBe(400);
      expect(same.body.message).toBe('New name is the same as the old name');
      expect((await rename(user.uid, 'Casey')).status).toBe(200);
    });

    it('refuses banned users: 403', async () => {
      const user = await createUser(t.db, { banned: true });
      const res = await rename(user.uid, 'Whatever1');
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Banned users cannot change their name');
    });

    it('lets one of two simultaneous renames to one name win', async () => {
      const a = await createUser(t.db);
      const b = await createUser(t.db);
      const [ra, rb] = await Promise.all([rename(a.uid, 'Contested'), rename(b.uid, 'contested')]);
      expect([ra.status, rb.status].sort()).toEqual([200, 409]);
      expect([ra, rb].find((r) => r.status === 409)?.body.message).toBe('Username already taken');
    });

    it.each([[''], ['.x'], ['with space'], [7], ['x'.repeat(17)]])(
      'refuses the name %p with 422',
      async (name) => {
        const user = await createUser(t.db);
        const res = await rename(user.uid, name);
        expect(res.status).toBe(422);
        expect(res.body.validationErrors?.[0]).toMatch(/^"name" /);
      },
    );
  });

  describe('POST /users/optOutOfLeaderboards', () => {
    it('sets lbOptOut and tells the leaderboards', async () => {
      const user = await createUser(t.db);
      const auth = await t.bearer(user.uid);
      const res = await t.request('POST', '/users/optOutOfLeaderboards', { auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'User opted out of leaderboards', data: null });
      expect(((await t.request('GET', '/users', { auth })).body.data as { lbOptOut: boolean }).lbOptOut).toBe(
        true,
      );
      expect(notified).toContain(`optOut:${user.uid}`);
    });

    it('refuses ApeKeys and missing tokens', async () => {
      expect((await t.request('POST', '/users/optOutOfLeaderboards', { auth: ANY_APE_KEY })).status).toBe(
        401,
      );
      expect((await t.request('POST', '/users/optOutOfLeaderboards')).status).toBe(401);
    });
  });

  describe('email, password and sessions', () => {
    it('updates the email (lower-cased) and ends every session', async () => {
      const user = await createUser(t.db);
      const auth = await t.bearer(user.uid, { issuedAt: t.clock.now() - 2000 });
      const res = await t.request('PATCH', '/users/email', {
        auth,
        body: { newEmail: 'New.Address@Example.TEST', previousEmail: user.email },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Email updated', data: null });
      const row = await t.db
        .selectFrom('users')
        .select('email')
        .where('uid', '=', user.uid)
        .executeTakeFirstOrThrow();
      expect(row.email).toBe('new.address@example.test');
      const after = await t.request('GET', '/users', { auth });
      expect(after.status).toBe(401);
      expect(after.body.message).toBe('Token revoked - please login again');
    });

    it.each([
      [{ newEmail: 'nope', previousEmail: 'a@b.test' }, '"newEmail" must be an email'],
      [{ newEmail: 'a@b.test' }, '"previousEmail" must be an email'],
      [{ newEmail: 'a@b.test', previousEmail: 'a@b.test', x: 1 }, "Unrecognized key(s) in object: 'x'"],
    ])('refuses the email body %j with 422', async (body, problem) => {
      const user = await createUser(t.db);
      const res = await t.request('PATCH', '/users/email', { auth: await t.bearer(user.uid), body });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toContain(problem);
    });

    it('updates the password and ends every session', async () => {
      const user = await createUser(t.db);
      const auth = await t.bearer(user.uid, { issuedAt: t.clock.now() - 2000 });
      const res = await t.request('PATCH', '/users/password', { auth, body: { newPassword: 'longenough' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Password updated', data: null });
      expect((await t.request('GET', '/users', { auth })).status).toBe(401);
    });

    it('refuses passwords shorter than 6 characters and wrong types', async () => {
      const user = await createUser(t.db);
      const auth = await t.bearer(user.uid);
      for (const newPassword of ['12345', 123456, undefined]) {
        const res = await t.request('PATCH', '/users/password', { auth, body: { newPassword } });
        expect(res.status).toBe(422);
        expect(res.body.validationErrors?.[0]).toMatch(/^"newPassword" /);
      }
    });

    it('revokes every token of the user, not those of others', async () => {
      const user = await createUser(t.db);
      const other = await createUser(t.db);
      const auth = await t.bearer(user.uid, { issuedAt: t.clock.now() - 2000 });
      const otherAuth = await t.bearer(other.uid, { issuedAt: t.clock.now() - 2000 });
      const res = await t.request('POST', '/users/revokeAllTokens', { auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'All tokens revoked', data: null });
      expect((await t.request('GET', '/users', { auth })).body.message).toBe(
        'Token revoked - please login again',
      );
      expect((await t.request('GET', '/users', { auth: otherAuth })).status).toBe(200);
      t.clock.advance(2000);
      expect((await t.request('GET', '/users', { auth: await t.bearer(user.uid) })).status).toBe(200);
    });
  });

  /** Rows of every user-owned table the users feature knows, for one uid. */
  async function ownedRows(uid: string) {
    const count = async (
      table: 'tags' | 'custom_themes' | 'inbox_mail' | 'personal_bests' | 'test_activity',
    ) => (await t.db.selectFrom(table).select('uid').where('uid', '=', uid).execute()).length;
    return {
      tags: await count('tags'),
      themes: await count('custom_themes'),
      mail: await count('inbox_mail'),
      pbs: await count('personal_bests'),
      activity: await count('test_activity'),
    };
  }

  async function populate(uid: string) {
    const auth = await t.bearer(uid);
    await t.request('POST', '/users/tags', { auth, body: { tagName: 'mytag' } });
    const colors = Object.fromEntries(
      [
        'bg',
        'main',
        'caret',
        'sub',
        'text',
        'error',
        'errorExtra',
        'colorfulError',
        'colorfulErrorExtra',
      ].map((k) => [k, '#123']),
    );
    await t.request('POST', '/users/customThemes', { auth, body: { name: 'theme', colors } });
    await t.request('POST', '/users/favoriteQuotes', { auth, body: { language: 'english', quoteId: '7' } });
    await t.request('PATCH', '/users/profile', {
      auth,
      body: { bio: 'hello', showActivityOnPublicProfile: true },
    });
    await t.app.get(InboxService).send(uid, { subject: 's', body: 'b' });
    await insertPersonalBest(t, uid);
    await insertActivity(t, uid, Math.floor(t.clock.now() / DAY_MS), 3);
  }

  describe('PATCH /users/reset', () => {
    it('clears stats, records and collections; keeps identity, badges, premium and the hour offset', async () => {
      const user = await createUser(t.db, { xp: 500, lbOptOut: true, premiumExpiresAt: -1 });
      const other = await createUser(t.db);
      await populate(user.uid);
      await populate(other.uid);
      await t.db
        .updateTable('users')
        .set({
          completed_tests: 5,
          started_tests: 9,
          time_typing: 123.5,
          streak_length: 4,
          streak_max_length: 8,
          streak_last_result_at: 1000,
          streak_hour_offset: 2.5,
          chat_id: 'chat-reset',
          chat_avatar: 'av',
          inventory_badges: JSON.stringify([{ id: 14, selected: true }]),
        })
        .where('uid', '=', user.uid)
        .execute();
      const auth = await t.bearer(user.uid);
      const res = await t.request('PATCH', '/users/reset', { auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'User reset', data: null });

      expect(await ownedRows(user.uid)).toEqual({ tags: 0, themes: 0, mail: 0, pbs: 0, activity: 0 });
      expect(await ownedRows(other.uid)).toEqual({ tags: 1, themes: 1, mail: 1, pbs: 1, activity: 1 });
      const me = (await t.request('GET', '/users', { auth })).body.data as Record<string, unknown>;
      expect(me).toMatchObject({
        uid: user.uid,
        name: user.name,
        email: user.email,
        xp: 0,
        completedTests: 0,
        startedTests: 0,
        timeTyping: 0,
        lbOptOut: false,
        streak: { length: 0, maxLength: 0, lastResultTimestamp: 0, hourOffset: 2.5 },
        favoriteQuotes: {},
        inventory: { badges: [{ id: 14, selected: true }] },
        premium: { expirationTimestamp: -1 },
        profileDetails: { bio: '', keyboard: '', socialProfiles: {}, showActivityOnPublicProfile: false },
      });
      expect(me).not.toHaveProperty('chatId');
      expect(notified).toContain(`reset:${user.uid}`);
    });

    it('runs the reset handlers of other features in the same transaction', async () => {
      const user = await createUser(t.db);
      const lifecycle = t.app.get(AccountLifecycle);
      lifecycle.onReset('failing-feature', () => Promise.reject(new Error('boom')));
      try {
        await populate(user.uid);
        const res = await t.request('PATCH', '/users/reset', { auth: await t.bearer(user.uid) });
        expect(res.status).toBe(500);
        // Nothing was half-reset.
        expect(await ownedRows(user.uid)).toEqual({ tags: 1, themes: 1, mail: 1, pbs: 1, activity: 1 });
      } finally {
        lifecycle.onReset('failing-feature', () => Promise.resolve());
      }
    });

    it('refuses banned users: 403 Banned users cannot reset their account', async () => {
      const user = await createUser(t.db, { banned: true, xp: 10 });
      const res = await t.request('PATCH', '/users/reset', { auth: await t.bearer(user.uid) });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Banned users cannot reset their account');
      const row = await t.db
        .selectFrom('users')
        .select('xp')
        .where('uid', '=', user.uid)
        .executeTakeFirstOrThrow();
      expect(row.xp).toBe(10);
    });
  });

  describe('DELETE /users', () => {
    it('deletes the account and every row it owns, nothing of others', async () => {
      const user = await createUser(t.db);
      const other = await createUser(t.db);
      await populate(user.uid);
      await populate(other.uid);
      const auth = await t.bearer(user.uid);
      const res = await t.request('DELETE', '/users', { auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'User deleted', data: null });
      expect(await t.db.selectFrom('users').select('uid').where('uid', '=', user.uid).execute()).toEqual([]);
      expect(await ownedRows(user.uid)).toEqual({ tags: 0, themes: 0, mail: 0, pbs: 0, activity: 0 });
      expect(await ownedRows(other.uid)).toEqual({ tags: 1, themes: 1, mail: 1, pbs: 1, activity: 1 });
      expect(notified).toContain(`delete:${user.uid}`);
      const after = await t.request('GET', '/users', { auth });
      expect(after.status).toBe(404);
      expect(after.body.message).toBe('User not found');
      // The name is free again.
      expect((await t.request('GET', `/users/checkName/${user.name}`)).body.data).toEqual({
        available: true,
      });
    });
  });
});
