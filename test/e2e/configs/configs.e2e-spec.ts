import { AccountLifecycle } from '../../../src/common/account-lifecycle';
import { defaultConfig } from '../../../src/modules/configs/config-schema';
import { createUser } from '../../support/factories';
import { expectBearerOnly, freshIp } from '../../support/route-auth';
import { createTestApp, type TestApp } from '../../support/test-app';

describe('Configs: GET /configs, PATCH /configs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function signedIn(): Promise<{ uid: string; auth: string }> {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  }

  const getConfig = async (auth: string) => {
    const res = await t.request('GET', '/configs', { auth });
    expect(res.status).toBe(200);
    return res.body.data as Record<string, unknown>;
  };

  describe('GET /configs', () => {
    it('returns every key with the original defaults for a user who never saved one', async () => {
      const { auth } = await signedIn();
      const res = await t.request('GET', '/configs', { auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'Configuration retrieved', data: defaultConfig() });
      const data = res.body.data as Record<string, unknown>;
      expect(data).toMatchObject({
        mode: 'time',
        time: 30,
        words: 50,
        language: 'english',
        theme: 'serika_dark',
      });
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'GET', '/configs');
    });
  });

  describe('PATCH /configs', () => {
    it('changes only the given keys and keeps earlier ones', async () => {
      const { auth } = await signedIn();
      const first = await t.request('PATCH', '/configs', {
        auth,
        body: { time: 60, mode: 'words', theme: 'nord', funbox: ['mirror'] },
      });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ message: 'Config updated', data: null });

      const second = await t.request('PATCH', '/configs', { auth, body: { punctuation: true, time: 120 } });
      expect(second.status).toBe(200);

      expect(await getConfig(auth)).toEqual({
        ...defaultConfig(),
        mode: 'words',
        theme: 'nord',
        funbox: ['mirror'],
        punctuation: true,
        time: 120,
      });
    });

    it('accepts an empty body as no change', async () => {
      const { auth } = await signedIn();
      await t.request('PATCH', '/configs', { auth, body: { words: 25 } });
      const res = await t.request('PATCH', '/configs', { auth, body: {} });
      expect(res.status).toBe(200);
      expect((await getConfig(auth)).words).toBe(25);
    });

    it('keeps configurations per user (owner scoping)', async () => {
      const a = await signedIn();
      const b = await signedIn();
      await t.request('PATCH', '/configs', { auth: a.auth, body: { language: 'german' } });
      expect((await getConfig(a.auth)).language).toBe('german');
      expect((await getConfig(b.auth)).language).toBe('english');
    });

    it('refuses unknown keys with 422 and changes nothing', async () => {
      const { auth } = await signedIn();
      const res = await t.request('PATCH', '/configs', { auth, body: { time: 60, colour: 'blue', wat: 1 } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        message: 'Invalid request data schema',
        data: null,
        validationErrors: ["Unrecognized key(s) in object: 'colour', 'wat'"],
      });
      expect((await getConfig(auth)).time).toBe(30);
    });

    it('type-checks every key and stores nothing of an invalid body', async () => {
      const { auth } = await signedIn();
      const res = await t.request('PATCH', '/configs', {
        auth,
        body: {
          time: 15,
          punctuation: 'yes',
          words: -1,
          difficulty: 'impossible',
          language: 'elvish',
          soundVolume: 2,
          customThemeColors: ['#fff'],
        },
      });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors).toEqual(
        expect.arrayContaining([
          '"punctuation" must be a boolean value',
          '"words" must not be less than 0',
          '"difficulty" must be one of the following values: normal, expert, master',
          '"language" must be a supported language',
          '"soundVolume" must not be greater than 1',
          '"customThemeColors" must contain at least 10 elements',
        ]),
      );
      expect(res.body.validationErrors?.some((e) => e.startsWith('"time"'))).toBe(false);
      expect((await getConfig(auth)).time).toBe(30);
    });

    it.each([
      [{ time: null }, '"time" must be an integer number'],
      [{ time: '60' }, '"time" must be an integer number'],
      [{ theme: 'not_a_theme' }, '"theme" must be a known theme'],
      [{ quoteLength: 1 }, '"quoteLength" must be an array'],
    ])('refuses %j', async (body, message) => {
      const { auth } = await signedIn();
      const res = await t.request('PATCH', '/configs', { auth, body });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toContain(message);
    });

    it('refuses a body that is not an object', async () => {
      const { auth } = await signedIn();
      const res = await t.request('PATCH', '/configs', { auth, body: [{ time: 60 }] });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors).toEqual(['Expected object, received array']);
    });

    it('refuses callers without a signed-in account', async () => {
      await expectBearerOnly(t, 'PATCH', '/configs', { time: 60 });
    });

    it('allows 120 updates per hour, then answers 429', async () => {
      const { auth } = await signedIn();
      for (let i = 0; i < 120; i += 1) {
        const res = await t.request('PATCH', '/configs', { auth, body: { time: i }, ip: freshIp() });
        expect(res.status).toBe(200);
      }
      const limited = await t.request('PATCH', '/configs', { auth, body: { time: 1 }, ip: freshIp() });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ message: 'Request limit reached, please try again later.', data: null });
      // Reads have their own class.
      expect((await getConfig(auth)).time).toBe(119);
    });
  });

  describe('account lifecycle', () => {
    it('an account reset deletes the saved configuration', async () => {
      const { uid, auth } = await signedIn();
      await t.request('PATCH', '/configs', { auth, body: { time: 60 } });
      await t.db.transaction().execute((trx) => t.app.get(AccountLifecycle).runReset(uid, trx));
      expect(await getConfig(auth)).toEqual(defaultConfig());
    });

    it('deleting the account deletes the configuration', async () => {
      const { uid, auth } = await signedIn();
      await t.request('PATCH', '/configs', { auth, body: { time: 60 } });
      await t.db.deleteFrom('users').where('uid', '=', uid).execute();
      const rows = await t.db.selectFrom('user_configs').select('uid').where('uid', '=', uid).execute();
      expect(rows).toEqual([]);
    });
  });
});
