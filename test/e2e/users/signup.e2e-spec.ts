import { createUser } from '../../support/factories';
import { startStubServer, type StubServer } from '../../support/stub-server';
import { createTestApp, type TestApp } from '../../support/test-app';
import { ANY_APE_KEY } from './support';

const CAPTCHA_FAILED = 'Captcha challenge failed';

describe('POST /users/signup and GET /users/checkName/{name} (production mode, real captcha adapter)', () => {
  let t: TestApp;
  let captcha: StubServer;
  let n = 0;
  const newUid = () => `signup-${process.pid}-${++n}`;
  const signup = async (uid: string, body: unknown, tokenOptions: { email?: string } = {}) =>
    t.request('POST', '/users/signup', { auth: await t.bearer(uid, tokenOptions), body });

  beforeAll(async () => {
    captcha = await startStubServer(() => ({ json: { success: true } }));
    t = await createTestApp({
      env: {
        captcha: { verifyUrl: captcha.url, secret: 's3cret' },
        // Some tests sign the same uid up more than userSignup's 2 per day allow.
        rateLimit: { globalPerMinute: 10_000, overrides: { userSignup: { max: 100 } } },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await captcha.close();
  });
  afterEach(() => captcha.handle(() => ({ json: { success: true } })));

  describe('sign-up', () => {
    it('creates the account of the token user: uid and email from the token', async () => {
      const uid = newUid();
      const res = await signup(
        uid,
        { name: 'NewPerson', captcha: 'tok', uid: 'someone-else' },
        { email: 'np@x.test' },
      );
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'User created', data: null });
      const row = await t.db.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ name: 'NewPerson', email: 'np@x.test', added_at: t.clock.now(), xp: 0 });
      expect(
        await t.db.selectFrom('users').select('uid').where('uid', '=', 'someone-else').execute(),
      ).toEqual([]);

      const me = await t.request('GET', '/users', { auth: await t.bearer(uid) });
      expect(me.status).toBe(200);
      expect(me.body.data).toMatchObject({ uid, name: 'NewPerson', email: 'np@x.test', inboxUnreadSize: 0 });
    });

    it('verifies the captcha with the provider (secret, token and client IP)', async () => {
      const before = captcha.requests.length;
      expect((await signup(newUid(), { name: 'CaptchaCheck', captcha: 'the-token' })).status).toBe(200);
      const sent = new URLSearchParams(captcha.requests[before]?.body ?? '');
      expect(sent.get('secret')).toBe('s3cret');
      expect(sent.get('response')).toBe('the-token');
      expect(sent.get('remoteip')).toBe('127.0.0.1');
    });

    it('uses the body email only when the token has none', async () => {
      const uid = newUid();
      const res = await signup(
        uid,
        { name: 'NoTokenMail', captcha: 'c', email: 'body@x.test' },
        { email: '' },
      );
      expect(res.status).toBe(200);
      const row = await t.db
        .selectFrom('users')
        .select('email')
        .where('uid', '=', uid)
        .executeTakeFirstOrThrow();
      expect(row.email).toBe('body@x.test');
    });

    it.each([
      ['a refused captcha', () => ({ json: { success: false } })],
      ['a provider error', () => ({ status: 500, json: {} })],
      ['a malformed provider answer', () => ({ text: 'not json' })],
    ])('refuses %s with 422 Captcha challenge failed and creates nothing', async (_label, handler) => {
      captcha.handle(handler);
      const uid = newUid();
      const res = await signup(uid, { name: 'Refused1', captcha: 'bad' });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: CAPTCHA_FAILED, data: null });
      expect(await t.db.selectFrom('users').select('uid').where('uid', '=', uid).execute()).toEqual([]);
    });

    it('refuses a name someone has, in any letter case: 409 Username unavailable', async () => {
      await createUser(t.db, { name: 'TakenName' });
      for (const name of ['TakenName', 'takenname', 'TAKENNAME']) {
        const res = await signup(newUid(), { name, captcha: 'c' });
        expect(res.status).toBe(409);
        expect(res.body).toEqual({ message: 'Username unavailable', data: null });
      }
    });

    it('refuses a second sign-up of an existing account: 409 User document already exists', async () => {
      const uid = newUid();
      expect((await signup(uid, { name: 'Twice', captcha: 'c' })).status).toBe(200);
      const again = await signup(uid, { name: 'Twice2', captcha: 'c' });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('User document already exists');
      const sameName = await signup(uid, { name: 'Twice', captcha: 'c' });
      expect(sameName.status).toBe(409);
      expect(sameName.body.message).toBe('User document already exists');
    });

    it('lets exactly one of 20 simultaneous sign-ups with one name win', async () => {
      const uids = Array.from({ length: 20 }, () => newUid());
      const tokens = await Promise.all(uids.map((uid) => t.bearer(uid)));
      const results = await Promise.all(
        tokens.map((auth, i) =>
          t.request('POST', '/users/signup', {
            auth,
            body: { name: i % 2 === 0 ? 'RaceName' : 'racename', captcha: 'c' },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      const losers = results.filter((r) => r.status !== 200);
      expect(losers).toHaveLength(19);
      for (const r of losers) expect(r.body).toEqual({ message: 'Username unavailable', data: null });
      const rows = await t.db.selectFrom('users').select('uid').where('uid', 'in', uids).execute();
      expect(rows).toHaveLength(1);
    });

    it.each([
      [{ captcha: 'c' }, '"name" '],
      [{ name: 'Valid' }, '"captcha" must be a string'],
      [{ name: 'x'.repeat(17), captcha: 'c' }, '"name" must be 1-16 characters long'],
      [{ name: '', captcha: 'c' }, '"name" must be 1-16 characters long'],
      [
        { name: 'bad name', captcha: 'c' },
        '"name" may only contain letters, digits, underscores, hyphens and dots',
      ],
      [{ name: '.dotted', captcha: 'c' }, '"name" cannot start with a dot'],
      [{ name: 5, captcha: 'c' }, '"name" must be a string'],
      [{ name: 'Valid', captcha: 'c', email: 'not-an-email' }, '"email" must be an email'],
      [{ name: 'Valid', captcha: 'c', extra: 1 }, "Unrecognized key(s) in object: 'extra'"],
    ])('refuses an invalid body %j with 422', async (body, problem) => {
      const res = await signup(newUid(), body);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors?.some((e) => e.startsWith(problem))).toBe(true);
    });

    it('needs a valid identity token: none → 401, garbage → 401, ApeKey → 401', async () => {
      const body = { name: 'NoToken', captcha: 'c' };
      expect((await t.request('POST', '/users/signup', { body })).body).toEqual({
        message: 'Unauthorized',
        data: null,
      });
      expect((await t.request('POST', '/users/signup', { body, auth: 'Bearer junk' })).status).toBe(401);
      const ape = await t.request('POST', '/users/signup', { body, auth: ANY_APE_KEY });
      expect(ape.status).toBe(401);
      expect(ape.body.message).toBe('This endpoint does not accept ApeKeys');
    });

    it('answers 503 Sign up is temporarily disabled when sign-up is off (before validating)', async () => {
      await t.configure({ users: { signUp: false } });
      try {
        const res = await signup(newUid(), { bogus: true });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: 'Sign up is temporarily disabled', data: null });
      } finally {
        await t.configure({ users: { signUp: true } });
      }
    });
  });

  describe('check name', () => {
    it('tells whether a name is free, case-insensitively, without authentication', async () => {
      await createUser(t.db, { name: 'Occupied' });
      const taken = await t.request('GET', '/users/checkName/oCCUPIED');
      expect(taken.status).toBe(200);
      expect(taken.body).toEqual({ message: 'Check username', data: { available: false } });
      const free = await t.request('GET', '/users/checkName/Unoccupied_1');
      expect(free.body.data).toEqual({ available: true });
    });

    it("counts the caller's own name as available", async () => {
      const me = await createUser(t.db, { name: 'MineAlone' });
      const res = await t.request('GET', '/users/checkName/minealone', { auth: await t.bearer(me.uid) });
      expect(res.body.data).toEqual({ available: true });
      const other = await createUser(t.db);
      const theirs = await t.request('GET', '/users/checkName/minealone', {
        auth: await t.bearer(other.uid),
      });
      expect(theirs.body.data).toEqual({ available: false });
    });

    it.each(['.dot', 'x'.repeat(17), 'has%20space', 'a%2Fb'])(
      'refuses an invalid name %p with 400 Invalid request parameters',
      async (name) => {
        const res = await t.request('GET', `/users/checkName/${name}`);
        expect(res.status).toBe(400);
        expect(res.body.message).toBe('Invalid request parameters');
        expect(res.body.validationErrors?.[0]).toMatch(/^"name" /);
      },
    );

    it('still verifies a sent Authorization header', async () => {
      expect((await t.request('GET', '/users/checkName/abc', { auth: 'Bearer junk' })).status).toBe(401);
    });
  });
});
