import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createUser } from '../../support/factories';
import { clientResult, signed } from '../results/result-factory';
import { createTestApp, type TestApp } from '../../support/test-app';
import { expectEnvelope, stateDigest, UNLIMITED_CONFIGURATION, UNLIMITED_ENV } from './support';

const NUL = 'must not contain NUL characters or unpaired surrogates';

/** The reproductions of issue 14 item 1: each used to answer 500 or Fastify's own body. */
describe('hostile input', () => {
  let t: TestApp;
  let uid: string;
  let auth: string;
  let adminAuth: string;

  beforeAll(async () => {
    t = await createTestApp({ env: UNLIMITED_ENV, configuration: UNLIMITED_CONFIGURATION });
    const user = await createUser(t.db);
    uid = user.uid;
    auth = await t.bearer(uid);
    const admin = await createUser(t.db, { permissions: ['admin'] });
    adminAuth = await t.bearer(admin.uid);
  });
  afterAll(() => t.close());

  /** Sends the request (signed in unless `auth` is given) and asserts that no table changed. */
  async function refused(method: string, url: string, options: Parameters<TestApp['request']>[2] = {}) {
    const before = await stateDigest(t, uid);
    // A token issued now: some cases move the clock, and fresh-token routes refuse older ones.
    const res = await t.request(method, url, { auth: await t.bearer(uid), ...options });
    expect(await stateDigest(t, uid)).toBe(before);
    return res;
  }

  describe('1. nesting depth', () => {
    it('refuses a body nested 1,500 levels deep at parse time with 400', async () => {
      const deep = `${'['.repeat(1500)}1${']'.repeat(1500)}`;
      const res = await refused('POST', '/users/tags', { rawBody: `{"tagName":${deep}}` });
      expectEnvelope(res, 400, 'Invalid request parameters');
    });

    it('refuses a deep JSON query value as a plain string (400), not a crash', async () => {
      const deep = encodeURIComponent(`${'['.repeat(1500)}1${']'.repeat(1500)}`);
      const res = await refused('GET', `/results?offset=${deep}`);
      expectEnvelope(res, 400, 'Invalid request parameters');
      expect(res.body.validationErrors).toContain('"offset" must be an integer number');
    });

    it('still accepts nesting within the limit (strings with brackets do not count)', async () => {
      const res = await t.request('POST', '/users/tags', { auth, body: { tagName: 'a[[{{' } });
      expect(res.status).toBe(422);
      expect(res.body.validationErrors?.[0]).toMatch(/^"tagName" /);
    });
  });

  describe('2. NUL characters', () => {
    it('refuses NUL in a path parameter with 400', async () => {
      const res = await refused('GET', '/users/%00/profile', { auth: undefined });
      expectEnvelope(res, 400, 'Invalid request parameters');
      expect(res.body.validationErrors).toEqual([`"uidOrName" ${NUL}`]);
    });

    it('refuses NUL in body strings with 422 and the field path', async () => {
      const connection = await refused('POST', '/connections', { body: { receiverName: 'a\u0000b' } });
      expectEnvelope(connection, 422, 'Invalid request data schema');
      expect(connection.body.validationErrors).toContain(`"receiverName" ${NUL}`);

      const profile = await refused('PATCH', '/users/profile', { body: { bio: 'a\u0000b' } });
      expectEnvelope(profile, 422, 'Invalid request data schema');
      expect(profile.body.validationErrors).toEqual([`"bio" ${NUL}`]);
    });

    it('refuses NUL in a query value and in a key', async () => {
      const value = await refused('GET', '/connections?status=pend%00ing');
      expectEnvelope(value, 400, 'Invalid request parameters');
      const key = await refused('PATCH', '/users/profile', {
        rawBody: '{"socialProfiles":{"git\\u0000hub":"x"}}',
      });
      expectEnvelope(key, 422, 'Invalid request data schema');
    });
  });

  describe('3. null where a field is not nullable', () => {
    it.each(['bio', 'keyboard', 'socialProfiles'])(
      'PATCH /users/profile {"%s":null} → 422',
      async (field) => {
        const res = await refused('PATCH', '/users/profile', { body: { [field]: null } });
        expectEnvelope(res, 422, 'Invalid request data schema');
        expect(res.body.validationErrors).toEqual([`"${field}" must not be null`]);
      },
    );

    it('reports a nested null with its dotted path', async () => {
      const res = await refused('PATCH', '/users/profile', { body: { socialProfiles: { github: null } } });
      expectEnvelope(res, 422);
      expect(res.body.validationErrors).toEqual(['"socialProfiles.github" must not be null']);
    });

    it('PATCH /ape-keys/{id} {"name":null} → 422', async () => {
      const created = await t.request<{ data: { apeKeyId: string } }>('POST', '/ape-keys', {
        auth,
        body: { name: 'script', enabled: false },
      });
      expect(created.status).toBe(200);
      const res = await refused('PATCH', `/ape-keys/${created.body.data.apeKeyId}`, { body: { name: null } });
      expectEnvelope(res, 422, 'Invalid request data schema');
      expect(res.body.validationErrors).toEqual(['"name" must not be null']);
    });

    it('POST /results with a null or an empty JSON body → 422', async () => {
      for (const rawBody of ['null', '', '  ']) {
        const res = await refused('POST', '/results', { rawBody });
        expectEnvelope(res, 422, 'Invalid request data schema');
        expect(res.body.validationErrors?.some((e) => e.startsWith('"result" '))).toBe(true);
      }
    });

    it('still accepts null where the field is nullable (preset settingGroups)', async () => {
      const res = await t.request('POST', '/presets', {
        auth,
        body: { name: 'nullable', config: {}, settingGroups: null },
      });
      expect(res.status).toBe(200);
    });
  });

  describe('4. numbers beyond what PostgreSQL or Redis accept', () => {
    it.each([
      '/results?onOrAfterTimestamp=99999999999999999999',
      '/results?onOrAfterTimestamp=%2299999999999999999999%22',
      '/results?offset=1e400',
      '/leaderboards/xp/weekly?page=99999999999999999999',
    ])('GET %s → 400', async (url) => {
      const res = await refused('GET', url, { auth: url.startsWith('/leaderboards') ? undefined : auth });
      expectEnvelope(res, 400, 'Invalid request parameters');
      expect(res.body.validationErrors?.some((e) => /must be a finite number between/.test(e))).toBe(true);
    });

    it('refuses non-finite body numbers (1e400) with 422', async () => {
      const res = await refused('PATCH', '/users/profile', { rawBody: '{"selectedBadgeId":1e400}' });
      expectEnvelope(res, 422, 'Invalid request data schema');
    });

    it.each([
      '/leaderboards/xp/weekly?page=9007199254740991',
      '/leaderboards?language=english&mode=time&mode2=15&page=9007199254740991',
      '/leaderboards/daily?language=english&mode=time&mode2=15&page=9007199254740991&pageSize=200',
    ])('answers the largest safe page or offset with an empty list, not a crash: %s', async (url) => {
      const res = await t.request('GET', url, { auth });
      expect(res.status).toBe(200);
    });

    it('answers the largest safe offset without a crash', async () => {
      const res = await refused('GET', '/results?offset=9007199254740991');
      expect(res.status).toBeLessThan(500);
      if (res.status !== 200) expectEnvelope(res, res.status);
    });

    it.each([
      ['restartCount', { restartCount: 2 ** 31 }],
      ['charStats.0', { charStats: [2 ** 31, 0, 0, 0] }],
    ])('refuses a result whose %s overflows its integer column (422)', async (field, overrides) => {
      t.clock.advance(10 * 60_000);
      const res = await refused('POST', '/results', {
        body: { result: signed(clientResult(overrides), uid) },
      });
      expectEnvelope(res, 422, 'Invalid request data schema');
      expect(res.body.validationErrors?.some((e) => e.startsWith(`"result.${field.split('.')[0]}"`))).toBe(
        true,
      );
    });
  });

  it('5. refuses a lone surrogate before anything URI-encodes it (422)', async () => {
    const res = await refused('PATCH', '/users/email', {
      body: { newEmail: 'n@example.com', previousEmail: '\ud800' },
    });
    expectEnvelope(res, 422, 'Invalid request data schema');
    expect(res.body.validationErrors).toContain(`"previousEmail" ${NUL}`);
  });

  it('6. refuses inherited names inside the configuration patch (422)', async () => {
    const res = await refused('PATCH', '/configuration', {
      auth: adminAuth,
      body: { configuration: { users: { constructor: { a: 1 } } } },
    });
    expectEnvelope(res, 422, 'Invalid request data schema');
    expect(res.body.validationErrors).toEqual([
      '"configuration.users" Unrecognized key(s) in object: \'constructor\'',
    ]);
  });

  describe('7. strict bodies refuse keys every object inherits', () => {
    it.each(['toString', 'constructor', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'])(
      'POST /users/tags {"tagName":"ok2","%s":"x"} → 422',
      async (key) => {
        const res = await refused('POST', '/users/tags', { body: { tagName: 'ok2', [key]: 'x' } });
        expectEnvelope(res, 422, 'Invalid request data schema');
        expect(res.body.validationErrors).toEqual([`Unrecognized key(s) in object: '${key}'`]);
      },
    );

    it('refuses them in queries too (400), __proto__ included', async () => {
      for (const key of ['constructor', '__proto__', 'toString']) {
        const res = await refused('GET', `/results?${key}=1`);
        expectEnvelope(res, 400, 'Invalid request parameters');
        expect(res.body.validationErrors).toEqual([`Unrecognized key(s) in object: '${key}'`]);
      }
    });

    it('refuses them in nested DTO objects', async () => {
      const res = await refused('PATCH', '/users/profile', {
        body: { socialProfiles: { constructor: 'x' } },
      });
      expectEnvelope(res, 422);
      expect(res.body.validationErrors).toEqual([
        '"socialProfiles" Unrecognized key(s) in object: \'constructor\'',
      ]);
    });
  });

  describe('8. errors Fastify raises itself answer with the envelope', () => {
    it('bad URL encoding → 400', async () => {
      const res = await refused('GET', '/users/checkName/%C0%AE', { auth: undefined });
      expectEnvelope(res, 400, 'Invalid request parameters');
    });

    it('a path parameter over 768 characters (a 255-character uid, percent-encoded) → 414', async () => {
      const res = await refused('PATCH', `/ape-keys/${'a'.repeat(769)}`, { body: { enabled: true } });
      expectEnvelope(res, 414, 'Request URL is too long');
    });

    it('an unsupported media type → 415, a body over the limit → 413', async () => {
      const media = await refused('POST', '/users/tags', {
        rawBody: '<tagName>x</tagName>',
        headers: { 'content-type': 'application/xml' },
      });
      expectEnvelope(media, 415);
      const large = await refused('POST', '/users/tags', {
        body: { tagName: 'x'.repeat(t.env.bodyLimitBytes) },
      });
      expectEnvelope(large, 413, 'Request body is too large');
    });

    it('headers over the size limit → 431 with the envelope, written by our client-error handler', async () => {
      await t.app.listen(0, '127.0.0.1');
      const { port } = t.app.getHttpServer().address() as AddressInfo;
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(`GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`);
        });
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString()));
        socket.on('close', () => resolve(data));
        socket.on('error', (e) => (data ? resolve(data) : reject(e)));
      });
      expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
        message: 'Request headers are too large',
        data: null,
      });
    });
  });
});

describe('shutdown', () => {
  it('answers requests arriving while the app shuts down with 503 in the envelope', async () => {
    const t = await createTestApp();
    try {
      // What Nest does first when it closes (before its destroy hooks release pools and connections).
      (t.app.getHttpAdapter() as unknown as { beforeClose(): void }).beforeClose();
      const res = await t.request('GET', '/');
      expectEnvelope(res, 503, 'Server is shutting down, please try again');
      expect(res.headers.connection).toBe('close');
    } finally {
      await t.close();
    }
  });
});
