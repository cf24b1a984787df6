import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { ANY_APE_KEY, DAY_MS, insertActivity, insertPersonalBest } from './support';

describe('profiles: GET /users/{uidOrName}/profile, GET /users/profile/{uidOrName}, PATCH /users/profile', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      now: Date.parse('2026-03-10T12:00:00Z'),
      configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: {} } },
    });
  });
  afterAll(() => t.close());

  const BASE_KEYS = [
    'addedAt',
    'banned',
    'chatAvatar',
    'chatId',
    'isPremium',
    'lbOptOut',
    'maxStreak',
    'name',
    'personalBests',
    'streak',
    'typingStats',
    'uid',
    'xp',
  ];

  describe('reading', () => {
    it('finds a user by name in any letter case, on both paths', async () => {
      const user = await createUser(t.db, { name: 'ProfiledOne', xp: 77 });
      await t.db
        .updateTable('users')
        .set({
          streak_length: 3,
          streak_max_length: 9,
          completed_tests: 4,
          started_tests: 6,
          time_typing: 99.5,
        })
        .where('uid', '=', user.uid)
        .execute();
      for (const url of ['/users/profiledone/profile', '/users/profile/PROFILEDONE']) {
        const res = await t.request('GET', url);
        expect(res.status).toBe(200);
        expect(res.body.message).toBe('Profile retrieved');
        expect(res.body.data).toMatchObject({
          uid: user.uid,
          name: 'ProfiledOne',
          banned: false,
          xp: 77,
          streak: 3,
          maxStreak: 9,
          lbOptOut: false,
          isPremium: false,
          chatId: null,
          chatAvatar: null,
          typingStats: { completedTests: 4, startedTests: 6, timeTyping: 99.5 },
          details: { bio: '', keyboard: '', socialProfiles: {}, showActivityOnPublicProfile: false },
          allTimeLbs: { time: { '15': {}, '60': {} } },
          inventory: { badges: [] },
        });
        expect(res.body.data).not.toHaveProperty('testActivity');
      }
    });

    it('finds a user by uid with isUid (true or empty), not by name then', async () => {
      const user = await createUser(t.db, { name: 'ByUid' });
      for (const query of [{ isUid: 'true' }, { isUid: '' }]) {
        const res = await t.request('GET', `/users/${user.uid}/profile`, { query });
        expect(res.status).toBe(200);
        expect((res.body.data as { name: string }).name).toBe('ByUid');
      }
      const byName = await t.request('GET', '/users/ByUid/profile', { query: { isUid: true } });
      expect(byName.status).toBe(404);
      const uidAsName = await t.request('GET', `/users/${user.uid}/profile`, { query: { isUid: false } });
      expect(uidAsName.status).toBe(404);
      expect(uidAsName.body).toEqual({ message: 'User not found', data: null });
    });

    it('answers an unknown name with 404 User not found', async () => {
      const res = await t.request('GET', '/users/profile/NoSuchPerson');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'User not found', data: null });
    });

    it.each([[{ isUid: 'maybe' }], [{ isUid: '1' }], [{ other: 'x' }]])(
      'refuses the query %j with 400 Invalid request parameters',
      async (query) => {
        const user = await createUser(t.db);
        const res = await t.request('GET', `/users/${user.name}/profile`, { query });
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('Invalid request parameters');
      },
    );

    it('exposes only time 15/30/60/120 and words 10/25/50/100 personal bests', async () => {
      const user = await createUser(t.db);
      for (const [mode, mode2] of [
        ['time', '15'],
        ['time', '60'],
        ['time', '45'],
        ['words', '10'],
        ['words', '200'],
        ['quote', '3'],
        ['zen', 'zen'],
      ] as const) {
        await insertPersonalBest(t, user.uid, { mode, mode2 });
      }
      const res = await t.request('GET', `/users/${user.name}/profile`);
      const bests = (res.body.data as { personalBests: Record<string, Record<string, unknown[]>> })
        .personalBests;
      expect(Object.keys(bests)).toEqual(['time', 'words']);
      expect(Object.keys(bests.time ?? {}).sort()).toEqual(['15', '60']);
      expect(Object.keys(bests.words ?? {})).toEqual(['10']);
      expect(bests.time?.['15']?.[0]).toMatchObject({ wpm: 100, acc: 98, raw: 103, consistency: 80 });
    });

    it('shows testActivity (372 days up to today) only when the user chose to', async () => {
      const user = await createUser(t.db);
      const today = Math.floor(t.clock.now() / DAY_MS);
      await insertActivity(t, user.uid, today, 5);
      await insertActivity(t, user.uid, today - 371, 2);
      await insertActivity(t, user.uid, today - 372, 9);
      const auth = await t.bearer(user.uid);
      expect((await t.request('GET', `/users/${user.name}/profile`)).body.data).not.toHaveProperty(
        'testActivity',
      );
      await t.request('PATCH', '/users/profile', { auth, body: { showActivityOnPublicProfile: true } });
      const res = await t.request('GET', `/users/${user.name}/profile`);
      const activity = (res.body.data as { testActivity: { testsByDays: number[]; lastDay: number } })
        .testActivity;
      expect(activity.lastDay).toBe(Date.parse('2026-03-10T00:00:00Z'));
      expect(activity.testsByDays).toHaveLength(372);
      expect(activity.testsByDays[371]).toBe(5);
      expect(activity.testsByDays[0]).toBe(2);
      expect(activity.testsByDays.reduce((a, b) => a + b, 0)).toBe(7);
    });

    it('gives a banned user only the base fields', async () => {
      const user = await createUser(t.db, { banned: true });
      await t.db
        .updateTable('users')
        .set({ profile_show_activity: true })
        .where('uid', '=', user.uid)
        .execute();
      const res = await t.request('GET', `/users/${user.name}/profile`);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Profile retrived: banned user');
      expect(Object.keys(res.body.data as object).sort()).toEqual(BASE_KEYS);
      expect((res.body.data as { banned: boolean }).banned).toBe(true);
    });

    it('reports isPremium per spec rules 1 and 2', async () => {
      const user = await createUser(t.db, { premiumExpiresAt: -1 });
      const read = async () =>
        ((await t.request('GET', `/users/${user.name}/profile`)).body.data as { isPremium: boolean })
          .isPremium;
      expect(await read()).toBe(false);
      await t.configure({ users: { premium: { enabled: true } } });
      try {
        expect(await read()).toBe(true);
      } finally {
        await t.configure({ users: { premium: { enabled: false } } });
      }
    });

    it('is public but still verifies a sent Authorization header', async () => {
      const user = await createUser(t.db);
      expect(
        (await t.request('GET', `/users/${user.name}/profile`, { auth: await t.bearer(user.uid) })).status,
      ).toBe(200);
      expect((await t.request('GET', `/users/${user.name}/profile`, { auth: 'Bearer junk' })).status).toBe(
        401,
      );
    });
  });

  describe('PATCH /users/profile', () => {
    const patch = async (uid: string, body: unknown) =>
      t.request('PATCH', '/users/profile', { auth: await t.bearer(uid), body });
    const details = async (name: string) =>
      ((await t.request('GET', `/users/${name}/profile`)).body.data as { details: Record<string, unknown> })
        .details;

    it('changes only the given fields, strips markup and normalises whitespace', async () => {
      const user = await createUser(t.db);
      const first = await patch(user.uid, {
        bio: '  <b>Fast</b> typist<script>alert(1)</script>\n\n\n\nhi   there ',
        keyboard: 'Model <i>M</i>',
        socialProfiles: { twitter: 'fast_typist', website: 'https://typist.example' },
      });
      expect(first.status).toBe(200);
      expect(first.body.message).toBe('Profile updated');
      expect(first.body.data).toEqual({
        bio: 'Fast typist\n\nhi  there',
        keyboard: 'Model M',
        socialProfiles: { twitter: 'fast_typist', website: 'https://typist.example' },
      });

      // The original's answer: the sanitised fields sent, socialProfiles always, nothing else.
      const github = await patch(user.uid, { socialProfiles: { github: 'octo' } });
      expect(github.body).toEqual({
        message: 'Profile updated',
        data: { socialProfiles: { github: 'octo' } },
      });
      const shown = await patch(user.uid, { showActivityOnPublicProfile: true });
      expect(shown.body.data).toEqual({ socialProfiles: {}, showActivityOnPublicProfile: true });
      expect(await details(user.name)).toEqual({
        bio: 'Fast typist\n\nhi  there',
        keyboard: 'Model M',
        socialProfiles: { twitter: 'fast_typist', website: 'https://typist.example', github: 'octo' },
        showActivityOnPublicProfile: true,
      });
      expect((await patch(user.uid, { socialProfiles: { twitter: '' }, bio: '' })).status).toBe(200);
      expect(await details(user.name)).toMatchObject({
        bio: '',
        socialProfiles: { twitter: '', website: 'https://typist.example', github: 'octo' },
      });
    });

    it('selects an owned badge (only one at a time), -1 selects none, omitting keeps the selection', async () => {
      const user = await createUser(t.db);
      await t.db
        .updateTable('users')
        .set({ inventory_badges: JSON.stringify([{ id: 1, selected: true }, { id: 14 }]) })
        .where('uid', '=', user.uid)
        .execute();
      const badges = async () =>
        (
          (await t.request('GET', `/users/${user.name}/profile`)).body.data as {
            inventory: { badges: unknown };
          }
        ).inventory.badges;
      const res = await patch(user.uid, { selectedBadgeId: 14 });
      // Not echoed: the original client's strict response schema refuses `selectedBadgeId`.
      expect(res.body).toEqual({ message: 'Profile updated', data: { socialProfiles: {} } });
      expect(await badges()).toEqual([{ id: 1 }, { id: 14, selected: true }]);
      await patch(user.uid, { bio: 'keeps it' });
      expect(await badges()).toEqual([{ id: 1 }, { id: 14, selected: true }]);
      await patch(user.uid, { selectedBadgeId: -1 });
      expect(await badges()).toEqual([{ id: 1 }, { id: 14 }]);

      const notOwned = await patch(user.uid, { selectedBadgeId: 5 });
      expect(notOwned.status).toBe(404);
      expect(notOwned.body).toEqual({ message: 'Badge not found', data: null });
      expect(await badges()).toEqual([{ id: 1 }, { id: 14 }]);
    });

    it.each([
      [{ bio: 'x'.repeat(251) }, '"bio" must be shorter than or equal to 250 characters'],
      [{ keyboard: 'x'.repeat(76) }, '"keyboard" must be shorter than or equal to 75 characters'],
      [{ bio: 5 }, '"bio" must be a string'],
      [{ showActivityOnPublicProfile: 'yes' }, '"showActivityOnPublicProfile" must be a boolean value'],
      [{ selectedBadgeId: 1.5 }, '"selectedBadgeId" must be an integer number'],
      [{ selectedBadgeId: -2 }, '"selectedBadgeId" must not be less than -1'],
      [
        { socialProfiles: { website: 'http://insecure.example' } },
        '"socialProfiles.website" must be empty or a URL starting with "https://"',
      ],
      [
        { socialProfiles: { website: 'https://' } },
        '"socialProfiles.website" must be empty or a URL starting with "https://"',
      ],
      [
        { socialProfiles: { twitter: 'a'.repeat(16) } },
        '"socialProfiles.twitter" must be shorter than or equal to 15 characters',
      ],
      [
        { socialProfiles: { github: 'no spaces' } },
        '"socialProfiles.github" may only contain letters, digits, underscores, hyphens and dots (not first)',
      ],
      [{ socialProfiles: { myspace: 'me' } }, `"socialProfiles" Unrecognized key(s) in object: 'myspace'`],
      [{ socialProfiles: 'twitter' }, '"socialProfiles" must be an object'],
      [{ name: 'x' }, "Unrecognized key(s) in object: 'name'"],
    ])('refuses %j with 422', async (body, problem) => {
      const user = await createUser(t.db);
      const res = await patch(user.uid, body);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors).toContain(problem);
    });

    it('refuses banned users (403) and leaves the profile alone', async () => {
      const user = await createUser(t.db, { banned: true });
      const res = await patch(user.uid, { bio: 'new' });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Banned users cannot update their profile');
      const row = await t.db
        .selectFrom('users')
        .select('profile_bio')
        .where('uid', '=', user.uid)
        .executeTakeFirst();
      expect(row?.profile_bio).toBeNull();
    });

    it('refuses ApeKeys and missing tokens', async () => {
      expect((await t.request('PATCH', '/users/profile', { auth: ANY_APE_KEY, body: {} })).status).toBe(401);
      expect((await t.request('PATCH', '/users/profile', { body: {} })).status).toBe(401);
    });
  });

  it('answers 503 Profiles are not available at this time when profiles are off', async () => {
    const user = await createUser(t.db);
    await t.configure({ users: { profiles: { enabled: false } } });
    try {
      for (const [method, url] of [
        ['GET', `/users/${user.name}/profile`],
        ['GET', `/users/profile/${user.name}`],
        ['PATCH', '/users/profile'],
      ] as const) {
        const res = await t.request(method, url, { auth: await t.bearer(user.uid), body: { bio: 1 } });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: 'Profiles are not available at this time', data: null });
      }
    } finally {
      await t.configure({ users: { profiles: { enabled: true } } });
    }
  });
});
