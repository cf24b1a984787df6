import { createUser } from '../../support/factories';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';
import { ANY_APE_KEY } from './support';

describe('chat link: GET /users/chat/oauth, POST /users/chat/link, POST /users/chat/unlink', () => {
  let t: TestApp;
  let platform: StubServer;
  /** Access token → the account the stub platform says it belongs to. */
  const accounts = new Map<string, { id: string; avatar: string | null }>();

  beforeAll(async () => {
    platform = await startStubServer((req) => {
      const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
      const account = accounts.get(token);
      if (req.path !== '/api/users/@me' || !account)
        return { status: 401, json: { message: '401: Unauthorized' } };
      return { json: { id: account.id, username: 'someone', avatar: account.avatar } };
    });
    t = await createTestApp({
      configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
      env: {
        rateLimit: {
          globalPerMinute: 100_000,
          overrides: { userChatLink: { max: 1000 }, userChatUnlink: { max: 1000 } },
        },
        chat: {
          authorizeUrl: `${platform.url}/oauth2/authorize`,
          apiUrl: `${platform.url}/api`,
          clientId: 'client-123',
          redirectUri: 'https://typing.example/verify',
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await platform.close();
  });

  async function signedIn(overrides: { banned?: boolean } = {}) {
    const user = await createUser(t.db, overrides);
    return { ...user, auth: await t.bearer(user.uid) };
  }

  async function stateFor(auth: string): Promise<string> {
    const res = await t.request('GET', '/users/chat/oauth', { auth });
    return new URL((res.body.data as { url: string }).url).searchParams.get('state') ?? '';
  }

  const link = (auth: string, body: unknown) => t.request('POST', '/users/chat/link', { auth, body });

  it('hands out an authorize URL with a 20-character state bound to the user for a short time', async () => {
    const me = await signedIn();
    const res = await t.request('GET', '/users/chat/oauth', { auth: me.auth });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Discord oauth link generated');
    const url = new URL((res.body.data as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe(`${platform.url}/oauth2/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-123',
      redirect_uri: 'https://typing.example/verify',
      response_type: 'token',
      scope: 'identify',
      state: expect.stringMatching(/^[0-9a-f]{20}$/),
    });
    const ttl = await t.redis.ttl(`chat:{${me.uid}}:oauthState`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
  });

  it('links the account the token belongs to and shows it on the user', async () => {
    const me = await signedIn();
    accounts.set('tok-link', { id: '111', avatar: 'avatarhash' });
    const state = await stateFor(me.auth);
    const before = platform.requests.length;
    const res = await link(me.auth, { tokenType: 'Bearer', accessToken: 'tok-link', state });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      message: 'Discord account linked',
      data: { chatId: '111', chatAvatar: 'avatarhash' },
    });
    expect(platform.requests[before]?.headers.authorization).toBe('Bearer tok-link');
    const user = (await t.request('GET', '/users', { auth: me.auth })).body.data as Record<string, unknown>;
    expect(user).toMatchObject({ chatId: '111', chatAvatar: 'avatarhash' });
    const profile = (await t.request('GET', `/users/${me.name}/profile`)).body.data as Record<
      string,
      unknown
    >;
    expect(profile).toMatchObject({ chatId: '111', chatAvatar: 'avatarhash' });

    accounts.set('tok-link', { id: '111', avatar: 'newavatar' });
    const again = await link(me.auth, {
      tokenType: 'Bearer',
      accessToken: 'tok-link',
      state: await stateFor(me.auth),
    });
    expect(again.body).toEqual({
      message: 'Discord avatar updated',
      data: { chatId: '111', chatAvatar: 'newavatar' },
    });
  });

  it('accepts a state once only, and only the latest one of the user', async () => {
    const me = await signedIn();
    accounts.set('tok-once', { id: '222', avatar: null });
    const old = await stateFor(me.auth);
    const state = await stateFor(me.auth);
    const stale = await link(me.auth, { tokenType: 'Bearer', accessToken: 'tok-once', state: old });
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({ message: 'Invalid user token', data: null });
    // The failed attempt used up the pending state too.
    expect((await link(me.auth, { tokenType: 'Bearer', accessToken: 'tok-once', state })).status).toBe(403);
    const fresh = await stateFor(me.auth);
    expect((await link(me.auth, { tokenType: 'Bearer', accessToken: 'tok-once', state: fresh })).status).toBe(
      200,
    );
    expect((await link(me.auth, { tokenType: 'Bearer', accessToken: 'tok-once', state: fresh })).status).toBe(
      403,
    );
  });

  it('refuses another user’s state and an expired one', async () => {
    const me = await signedIn();
    const other = await signedIn();
    accounts.set('tok-x', { id: '333', avatar: null });
    const theirs = await stateFor(other.auth);
    expect((await link(me.auth, { tokenType: 'Bearer', accessToken: 'tok-x', state: theirs })).status).toBe(
      403,
    );
    const mine = await stateFor(me.auth);
    await t.redis.pexpire(`chat:{${me.uid}}:oauthState`, 1);
    await new Promise((r) => setTimeout(r, 20));
    const expired = await link(me.auth, { tokenType: 'Bearer', accessToken: 'tok-x', state: mine });
    expect(expired.status).toBe(403);
    expect(expired.body.message).toBe('Invalid user token');
  });

  it('refuses a chat account linked to someone else: 409', async () => {
    const first = await signedIn();
    const second = await signedIn();
    accounts.set('tok-shared', { id: '444', avatar: null });
    expect(
      (
        await link(first.auth, {
          tokenType: 'Bearer',
          accessToken: 'tok-shared',
          state: await stateFor(first.auth),
        })
      ).status,
    ).toBe(200);
    const res = await link(second.auth, {
      tokenType: 'Bearer',
      accessToken: 'tok-shared',
      state: await stateFor(second.auth),
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      message: 'This Discord account is linked to a different account',
      data: null,
    });
    const row = await t.db
      .selectFrom('users')
      .select('chat_id')
      .where('uid', '=', second.uid)
      .executeTakeFirst();
    expect(row?.chat_id).toBeNull();
  });

  it('answers 500 Could not get Discord account info when the platform refuses the token', async () => {
    const me = await signedIn();
    const res = await link(me.auth, {
      tokenType: 'Bearer',
      accessToken: 'unknown-token',
      state: await stateFor(me.auth),
    });
    expect(res.status).toBe(500);
    expect(res.body.message).toBe('Could not get Discord account info');
  });

  it('refuses banned users', async () => {
    const me = await signedIn({ banned: true });
    accounts.set('tok-banned', { id: '555', avatar: null });
    const res = await link(me.auth, {
      tokenType: 'Bearer',
      accessToken: 'tok-banned',
      state: await stateFor(me.auth),
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Banned accounts cannot link with Discord');
    const unlink = await t.request('POST', '/users/chat/unlink', { auth: me.auth });
    expect(unlink.status).toBe(403);
    expect(unlink.body.message).toBe('Banned accounts cannot unlink Discord');
  });

  it.each([
    [{ tokenType: 'Bearer', accessToken: 'a', state: 'short' }, '"state" must be exactly 20 characters long'],
    [
      { tokenType: 'Bearer', accessToken: 'a', state: 'x'.repeat(21) },
      '"state" must be exactly 20 characters long',
    ],
    [{ tokenType: 'Bearer', state: 'x'.repeat(20) }, '"accessToken" must be a string'],
    [
      { tokenType: 'Bearer\r\nX: 1', accessToken: 'a', state: 'x'.repeat(20) },
      '"tokenType" must be a token type such as "Bearer"',
    ],
    [
      { tokenType: 'Bearer', accessToken: 'a', state: 'x'.repeat(20), extra: 1 },
      "Unrecognized key(s) in object: 'extra'",
    ],
  ])('refuses %j with 422', async (body, problem) => {
    const me = await signedIn();
    const res = await link(me.auth, body);
    expect(res.status).toBe(422);
    expect(res.body.validationErrors).toContain(problem);
  });

  it('unlinks, then answers 404 when there is nothing to unlink', async () => {
    const me = await signedIn();
    accounts.set('tok-unlink', { id: '666', avatar: 'a' });
    await link(me.auth, { tokenType: 'Bearer', accessToken: 'tok-unlink', state: await stateFor(me.auth) });
    const res = await t.request('POST', '/users/chat/unlink', { auth: me.auth });
    expect(res.body).toEqual({ message: 'Discord account unlinked', data: null });
    const row = await t.db
      .selectFrom('users')
      .select(['chat_id', 'chat_avatar'])
      .where('uid', '=', me.uid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ chat_id: null, chat_avatar: null });
    const again = await t.request('POST', '/users/chat/unlink', { auth: me.auth });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('User does not have a linked Discord account');
    // The chat account is free for someone else now.
    const other = await signedIn();
    expect(
      (
        await link(other.auth, {
          tokenType: 'Bearer',
          accessToken: 'tok-unlink',
          state: await stateFor(other.auth),
        })
      ).status,
    ).toBe(200);
  });

  it('answers 503 for oauth and link while the integration is off; unlink still works', async () => {
    const me = await signedIn();
    await t.db
      .updateTable('users')
      .set({ chat_id: 'off-1', chat_avatar: null })
      .where('uid', '=', me.uid)
      .execute();
    await t.configure({ users: { discordIntegration: { enabled: false } } });
    try {
      for (const [method, url] of [
        ['GET', '/users/chat/oauth'],
        ['POST', '/users/chat/link'],
      ] as const) {
        const res = await t.request(method, url, { auth: me.auth, body: {} });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({
          message: 'Discord integration is not available at this time',
          data: null,
        });
      }
      expect((await t.request('POST', '/users/chat/unlink', { auth: me.auth })).status).toBe(200);
    } finally {
      await t.configure({ users: { discordIntegration: { enabled: true } } });
    }
  });

  describe('the original platform’s paths /users/discord/* (aliases)', () => {
    it('link, relink and unlink through them, answering discordId/discordAvatar as the original client reads', async () => {
      const me = await signedIn();
      accounts.set('tok-discord', { id: '777', avatar: 'av1' });
      const oauth = await t.request('GET', '/users/discord/oauth', { auth: me.auth });
      expect(oauth.body.message).toBe('Discord oauth link generated');
      const state = new URL((oauth.body.data as { url: string }).url).searchParams.get('state');
      const linked = await t.request('POST', '/users/discord/link', {
        auth: me.auth,
        body: { tokenType: 'Bearer', accessToken: 'tok-discord', state },
      });
      expect(linked.body).toEqual({
        message: 'Discord account linked',
        data: { discordId: '777', discordAvatar: 'av1' },
      });
      // One operation: a state handed out on the spec's path works on the alias and the other way round.
      accounts.set('tok-discord', { id: '777', avatar: 'av2' });
      const relinked = await t.request('POST', '/users/discord/link', {
        auth: me.auth,
        body: { tokenType: 'Bearer', accessToken: 'tok-discord', state: await stateFor(me.auth) },
      });
      expect(relinked.body).toEqual({
        message: 'Discord avatar updated',
        data: { discordId: '777', discordAvatar: 'av2' },
      });
      const user = (await t.request('GET', '/users', { auth: me.auth })).body.data as Record<string, unknown>;
      expect(user).toMatchObject({
        chatId: '777',
        chatAvatar: 'av2',
        discordId: '777',
        discordAvatar: 'av2',
      });

      const unlinked = await t.request('POST', '/users/discord/unlink', { auth: me.auth });
      expect(unlinked.body).toEqual({ message: 'Discord account unlinked', data: null });
      const again = await t.request('POST', '/users/discord/unlink', { auth: me.auth });
      expect(again.status).toBe(404);
      expect(again.body.message).toBe('User does not have a linked Discord account');
      const after = (await t.request('GET', '/users', { auth: me.auth })).body.data as Record<
        string,
        unknown
      >;
      expect(after).not.toHaveProperty('discordId');
      const profileAfter = (await t.request('GET', `/users/${me.name}/profile`)).body.data as Record<
        string,
        unknown
      >;
      expect(profileAfter).not.toHaveProperty('discordId');
    });

    it('share the 503 switch, validation and authentication of the spec’s paths', async () => {
      const me = await signedIn();
      const invalid = await t.request('POST', '/users/discord/link', {
        auth: me.auth,
        body: { tokenType: 'Bearer', accessToken: 'a', state: 'short' },
      });
      expect(invalid.status).toBe(422);
      expect(invalid.body.validationErrors).toContain('"state" must be exactly 20 characters long');
      await t.configure({ users: { discordIntegration: { enabled: false } } });
      try {
        for (const [method, url] of [
          ['GET', '/users/discord/oauth'],
          ['POST', '/users/discord/link'],
        ] as const) {
          const res = await t.request(method, url, { auth: me.auth, body: {} });
          expect(res.status).toBe(503);
          expect(res.body.message).toBe('Discord integration is not available at this time');
        }
      } finally {
        await t.configure({ users: { discordIntegration: { enabled: true } } });
      }
      for (const [method, url] of [
        ['GET', '/users/discord/oauth'],
        ['POST', '/users/discord/link'],
        ['POST', '/users/discord/unlink'],
      ] as const) {
        expect((await t.request(method, url, { auth: ANY_APE_KEY })).body.message).toBe(
          'This endpoint does not accept ApeKeys',
        );
        expect((await t.request(method, url)).status).toBe(401);
      }
    });
  });

  it('refuses ApeKeys and missing tokens', async () => {
    for (const [method, url] of [
      ['GET', '/users/chat/oauth'],
      ['POST', '/users/chat/link'],
      ['POST', '/users/chat/unlink'],
    ] as const) {
      expect((await t.request(method, url, { auth: ANY_APE_KEY })).body.message).toBe(
        'This endpoint does not accept ApeKeys',
      );
      expect((await t.request(method, url)).status).toBe(401);
    }
  });
});
