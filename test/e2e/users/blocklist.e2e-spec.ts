import { createHash } from 'node:crypto';
import { createUser } from '../../support/factories';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';
import { DAY_MS } from './support';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

describe('blocklist: a deleted banned account cannot come back under the same name, email or chat account', () => {
  let t: TestApp;
  let captcha: StubServer;
  let platform: StubServer;
  const chatAccounts = new Map<string, string>();
  let n = 0;
  const newUid = () => `bl-${process.pid}-${++n}`;

  beforeAll(async () => {
    captcha = await startStubServer(() => ({ json: { success: true } }));
    platform = await startStubServer((req) => {
      const token = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
      const id = chatAccounts.get(token);
      return id ? { json: { id, username: 'x', avatar: 'av' } } : { status: 401, json: {} };
    });
    t = await createTestApp({
      configuration: { rateLimiting: { badAuthentication: { enabled: false } } },
      env: {
        captcha: { verifyUrl: captcha.url, secret: 's' },
        rateLimit: { globalPerMinute: 100_000, overrides: { userSignup: { max: 100 } } },
        chat: {
          authorizeUrl: `${platform.url}/oauth2/authorize`,
          apiUrl: `${platform.url}/api`,
          clientId: 'client-1',
          redirectUri: 'https://typing.example/verify',
        },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await captcha.close();
    await platform.close();
  });

  const blocklist = () =>
    t.db.selectFrom('blocklist').select(['kind', 'hash']).orderBy('kind').orderBy('hash').execute();

  /** A banned account with a chat link, deleted by its owner. */
  async function deleteBanned(name: string, email: string, chatId: string) {
    const user = await createUser(t.db, { name, email, banned: true });
    await t.db.updateTable('users').set({ chat_id: chatId }).where('uid', '=', user.uid).execute();
    const res = await t.request('DELETE', '/users', { auth: await t.bearer(user.uid) });
    expect(res.status).toBe(200);
    return user;
  }

  it('deleting a banned account stores only the SHA-256 of its lower-cased name, email and chat id', async () => {
    await deleteBanned('Cheater_One', 'Cheater.One@Example.TEST', 'Chat-777');
    const rows = await blocklist();
    expect(rows).toEqual(
      expect.arrayContaining([
        { kind: 'chatId', hash: sha256('chat-777') },
        { kind: 'email', hash: sha256('cheater.one@example.test') },
        { kind: 'name', hash: sha256('cheater_one') },
      ]),
    );
    expect(JSON.stringify(rows)).not.toMatch(/cheater/i);
  });

  it('deleting an account that is not banned blocks nothing', async () => {
    const before = await blocklist();
    const user = await createUser(t.db, { name: 'Innocent_1' });
    expect((await t.request('DELETE', '/users', { auth: await t.bearer(user.uid) })).status).toBe(200);
    expect(await blocklist()).toEqual(before);
  });

  it('sign-up answers 409 for a blocked name (any case) or email, after the name-taken check', async () => {
    await deleteBanned('Blocked_Two', 'two@example.test', 'chat-2');
    const signup = async (name: string, email: string) =>
      t.request('POST', '/users/signup', {
        auth: await t.bearer(newUid(), { email }),
        body: { name, captcha: 'c' },
      });
    for (const [name, email] of [
      ['blocked_TWO', 'fresh@example.test'],
      ['FreshName_2', 'TWO@example.test'],
    ] as const) {
      const res = await signup(name, email);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Username or email blocked', data: null });
    }
    const taken = await createUser(t.db, { name: 'TakenName_2' });
    expect((await signup(taken.name, 'two@example.test')).body.message).toBe('Username unavailable');
    expect((await signup('FreshName_2', 'fresh2@example.test')).status).toBe(200);
  });

  it('a name change to a blocked name answers 409 Username blocked before any other check', async () => {
    await deleteBanned('Blocked_Three', 'three@example.test', 'chat-3');
    // Banned, and renamed yesterday: the blocklist answer still comes first.
    const user = await createUser(t.db, { banned: true });
    await t.db
      .updateTable('users')
      .set({ last_name_change_at: t.clock.now() - DAY_MS })
      .where('uid', '=', user.uid)
      .execute();
    const res = await t.request('PATCH', '/users/name', {
      auth: await t.bearer(user.uid),
      body: { name: 'BLOCKED_three' },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Username blocked', data: null });
    const other = await createUser(t.db);
    const ok = await t.request('PATCH', '/users/name', {
      auth: await t.bearer(other.uid),
      body: { name: 'NotBlocked_3' },
    });
    expect(ok.status).toBe(200);
  });

  it('linking a blocked chat account answers 409 The Discord account is blocked', async () => {
    await deleteBanned('Blocked_Four', 'four@example.test', 'CHAT-4');
    const user = await createUser(t.db);
    const auth = await t.bearer(user.uid);
    const link = async (token: string) => {
      const oauth = await t.request('GET', '/users/chat/oauth', { auth });
      const state = new URL((oauth.body.data as { url: string }).url).searchParams.get('state');
      return t.request('POST', '/users/chat/link', {
        auth,
        body: { tokenType: 'Bearer', accessToken: token, state },
      });
    };
    chatAccounts.set('tok-blocked', 'chat-4');
    const res = await link('tok-blocked');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'The Discord account is blocked', data: null });
    const row = await t.db
      .selectFrom('users')
      .select('chat_id')
      .where('uid', '=', user.uid)
      .executeTakeFirst();
    expect(row?.chat_id).toBeNull();
    chatAccounts.set('tok-ok', 'chat-44');
    expect((await link('tok-ok')).status).toBe(200);
  });
});
