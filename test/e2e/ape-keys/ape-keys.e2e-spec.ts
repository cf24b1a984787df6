import bcrypt from 'bcrypt';
import { bcryptInput } from '../../../src/modules/ape-keys/ape-key-secret';
import type { ApeKeyDetails, GeneratedApeKey } from '../../../src/modules/ape-keys/ape-keys.types';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { generateKey, HIGH_GLOBAL_LIMIT, TEST_CONFIGURATION } from './support';

type KeyList = Record<string, ApeKeyDetails>;

describe('ApeKey management (/ape-keys)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ configuration: TEST_CONFIGURATION, env: HIGH_GLOBAL_LIMIT });
  });
  afterAll(() => t.close());

  const newUser = async () => {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  };
  const list = async (auth: string) => {
    const res = await t.request<{ data: KeyList }>('GET', '/ape-keys', { auth });
    expect(res.status).toBe(200);
    return res.body.data;
  };

  describe('access', () => {
    const routes: [string, string, unknown][] = [
      ['GET', '/ape-keys', undefined],
      ['POST', '/ape-keys', { name: 'k', enabled: true }],
      ['PATCH', '/ape-keys/0123456789abcdef01234567', { enabled: false }],
      ['DELETE', '/ape-keys/0123456789abcdef01234567', undefined],
    ];

    it.each(routes)(
      '%s %s refuses a user whose canManageApeKeys was revoked: 403, before validation',
      async (method, url, body) => {
        const { uid } = await createUser(t.db, { canManageApeKeys: false });
        const res = await t.request(method, url, { auth: await t.bearer(uid), body: body && { bogus: 1 } });
        expect(res.status).toBe(403);
        expect(res.body).toEqual({
          message: 'You have lost access to ape keys, please contact support',
          data: null,
        });
      },
    );

    it('answers the disabled switch (503) before the revoked access (403)', async () => {
      const { uid } = await createUser(t.db, { canManageApeKeys: false });
      await t.configure({ apeKeys: { endpointsEnabled: false } });
      try {
        const res = await t.request('GET', '/ape-keys', { auth: await t.bearer(uid) });
        expect(res.status).toBe(503);
      } finally {
        await t.configure({ apeKeys: { endpointsEnabled: true } });
      }
    });

    it.each(routes)('%s %s needs authentication: 401 Unauthorized', async (method, url, body) => {
      const res = await t.request(method, url, { body });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthorized', data: null });
    });

    it.each(routes)('%s %s never accepts an ApeKey, not even a valid one: 401', async (method, url, body) => {
      const user = await newUser();
      const { apeKey } = await generateKey(t, user.auth);
      const res = await t.request(method, url, { body, auth: `ApeKey ${apeKey}` });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'This endpoint does not accept ApeKeys', data: null });
    });

    it.each(routes)(
      '%s %s answers 503 when apeKeys.endpointsEnabled is false, even to an invalid request',
      async (method, url) => {
        const user = await newUser();
        await t.configure({ apeKeys: { endpointsEnabled: false } });
        try {
          const res = await t.request(method, url, { auth: user.auth, body: { bogus: 1 } });
          expect(res.status).toBe(503);
          expect(res.body).toEqual({ message: 'ApeKeys are currently disabled.', data: null });
        } finally {
          await t.configure({ apeKeys: { endpointsEnabled: true } });
        }
      },
    );
  });

  describe('POST /ape-keys', () => {
    it('generates a key shown once: base64url of "<apeKeyId>.<secret>", only a bcrypt hash stored', async () => {
      const user = await newUser();
      const res = await t.request<{ data: GeneratedApeKey }>('POST', '/ape-keys', {
        auth: user.auth,
        body: { name: 'my-script_1.0', enabled: true },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Ape Key generated');
      const { apeKey, apeKeyId, apeKeyDetails } = res.body.data;
      expect(Object.keys(res.body.data).sort()).toEqual(['apeKey', 'apeKeyDetails', 'apeKeyId']);
      expect(apeKeyId).toMatch(/^[0-9a-f]{24}$/);
      expect(apeKeyDetails).toEqual({
        name: 'my-script_1.0',
        enabled: true,
        createdOn: t.clock.now(),
        modifiedOn: t.clock.now(),
        lastUsedOn: -1,
      });
      expect(apeKey).toMatch(/^[A-Za-z0-9_-]+$/);
      const [id, secret] = Buffer.from(apeKey, 'base64url').toString('utf8').split('.') as [string, string];
      expect(id).toBe(apeKeyId);
      // apeKeys.apeKeyBytes (default 24) CSPRNG bytes, base64url.
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(Buffer.from(secret, 'base64url')).toHaveLength(24);

      const stored = await t.db
        .selectFrom('ape_keys')
        .select(['uid', 'hash'])
        .where('id', '=', apeKeyId)
        .executeTakeFirstOrThrow();
      expect(stored.uid).toBe(user.uid);
      expect(stored.hash).toMatch(/^\$2[aby]\$04\$/); // the configured salt rounds
      expect(stored.hash).not.toContain(secret);
      expect(await bcrypt.compare(bcryptInput(secret), stored.hash)).toBe(true);
    });

    it('makes every key unique and follows apeKeys.apeKeyBytes', async () => {
      const user = await newUser();
      await t.configure({ apeKeys: { apeKeyBytes: 48 } });
      try {
        const a = await generateKey(t, user.auth);
        const b = await generateKey(t, user.auth);
        expect(a.apeKey).not.toBe(b.apeKey);
        expect(a.apeKeyId).not.toBe(b.apeKeyId);
        const secret = Buffer.from(a.apeKey, 'base64url').toString('utf8').split('.')[1] as string;
        expect(Buffer.from(secret, 'base64url')).toHaveLength(48);
      } finally {
        await t.configure({ apeKeys: { apeKeyBytes: 24 } });
      }
    });

    it('allows apeKeys.maxKeysPerUser keys (default 5), then 409', async () => {
      const user = await newUser();
      for (let i = 0; i < 5; i++) await generateKey(t, user.auth, { name: `k${i}`, enabled: i % 2 === 0 });
      const res = await t.request('POST', '/ape-keys', {
        auth: user.auth,
        body: { name: 'k5', enabled: true },
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Maximum number of ApeKeys have been generated', data: null });
      expect(Object.keys(await list(user.auth))).toHaveLength(5);
    });

    it('holds the configured cap under concurrent requests, and 0 refuses every key', async () => {
      const user = await newUser();
      await t.configure({ apeKeys: { maxKeysPerUser: 2 } });
      try {
        const results = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            t.request('POST', '/ape-keys', { auth: user.auth, body: { name: `c${i}`, enabled: true } }),
          ),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 200, 409, 409, 409]);
        await t.configure({ apeKeys: { maxKeysPerUser: 0 } });
        const other = await newUser();
        expect(
          (await t.request('POST', '/ape-keys', { auth: other.auth, body: { name: 'x', enabled: true } }))
            .status,
        ).toBe(409);
      } finally {
        await t.configure({ apeKeys: { maxKeysPerUser: 5 } });
      }
    });

    it.each([
      ['a missing name', { enabled: true }, '"name"'],
      ['an empty name', { name: '', enabled: true }, '"name"'],
      ['a 21-character name', { name: 'a'.repeat(21), enabled: true }, '"name"'],
      ['a name with a space', { name: 'my key', enabled: true }, '"name"'],
      ['a name with other letters', { name: 'ключ', enabled: true }, '"name"'],
      ['a name starting with a dot', { name: '.hidden', enabled: true }, '"name"'],
      ['a numeric name', { name: 5, enabled: true }, '"name"'],
      ['a missing enabled', { name: 'k' }, '"enabled"'],
      ['enabled as a string', { name: 'k', enabled: 'true' }, '"enabled"'],
      ['an unknown field', { name: 'k', enabled: true, uid: 'x' }, "Unrecognized key(s) in object: 'uid'"],
    ])('refuses %s: 422', async (_label, body, problem) => {
      const user = await newUser();
      const res = await t.request('POST', '/ape-keys', { auth: user.auth, body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors?.some((e) => e.startsWith(problem))).toBe(true);
      expect(await list(user.auth)).toEqual({});
    });

    it('accepts a 20-character name', async () => {
      const user = await newUser();
      const key = await generateKey(t, user.auth, { name: 'a'.repeat(20), enabled: false });
      expect(key.apeKeyDetails.name).toBe('a'.repeat(20));
      expect(key.apeKeyDetails.enabled).toBe(false);
    });
  });

  describe('GET /ape-keys', () => {
    it("lists the caller's keys by id, oldest first, never a secret or hash, never another user's", async () => {
      const user = await newUser();
      const other = await newUser();
      expect(await list(user.auth)).toEqual({});
      const first = await generateKey(t, user.auth, { name: 'first', enabled: true });
      t.clock.advance(1000);
      const second = await generateKey(t, user.auth, { name: 'second', enabled: false });
      await generateKey(t, other.auth, { name: 'theirs', enabled: true });

      const res = await t.request<{ data: KeyList }>('GET', '/ape-keys', { auth: user.auth });
      expect(res.body.message).toBe('ApeKeys retrieved');
      expect(Object.keys(res.body.data)).toEqual([first.apeKeyId, second.apeKeyId]);
      expect(res.body.data[first.apeKeyId]).toEqual(first.apeKeyDetails);
      expect(res.body.data[second.apeKeyId]).toEqual(second.apeKeyDetails);
      expect(res.text).not.toMatch(/hash|secret|apeKey"|\$2b\$/);
    });
  });

  describe('PATCH /ape-keys/{apeKeyId}', () => {
    it.each([
      ['the name', { name: 'renamed' }, { name: 'renamed', enabled: true }],
      ['enabled', { enabled: false }, { name: 'orig', enabled: false }],
      ['both', { name: 'both', enabled: false }, { name: 'both', enabled: false }],
    ])('changes %s only, and modifiedOn', async (_label, body, expected) => {
      const user = await newUser();
      const key = await generateKey(t, user.auth, { name: 'orig', enabled: true });
      t.clock.advance(5000);
      const res = await t.request('PATCH', `/ape-keys/${key.apeKeyId}`, { auth: user.auth, body });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'ApeKey updated', data: null });
      expect((await list(user.auth))[key.apeKeyId]).toEqual({
        ...key.apeKeyDetails,
        ...expected,
        modifiedOn: t.clock.now(),
      });
    });

    it('answers an empty body with 200 for an own key and changes nothing', async () => {
      const user = await newUser();
      const key = await generateKey(t, user.auth);
      t.clock.advance(1000);
      const res = await t.request('PATCH', `/ape-keys/${key.apeKeyId}`, { auth: user.auth, body: {} });
      expect(res.status).toBe(200);
      expect((await list(user.auth))[key.apeKeyId]).toEqual(key.apeKeyDetails);
    });

    it.each([
      ['with changes', { enabled: false, name: 'stolen' }],
      ['with an empty body', {}],
    ])("answers another user's key %s with 404 and changes nothing", async (_label, body) => {
      const owner = await newUser();
      const intruder = await newUser();
      const key = await generateKey(t, owner.auth);
      const res = await t.request('PATCH', `/ape-keys/${key.apeKeyId}`, { auth: intruder.auth, body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'ApeKey not found', data: null });
      expect((await list(owner.auth))[key.apeKeyId]).toEqual(key.apeKeyDetails);
    });

    it('answers an unknown id with 404 and a malformed one with 400', async () => {
      const user = await newUser();
      const unknown = await t.request('PATCH', '/ape-keys/0123456789abcdef01234567', {
        auth: user.auth,
        body: { enabled: true },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe('ApeKey not found');
      const bad = await t.request('PATCH', '/ape-keys/not-valid!', {
        auth: user.auth,
        body: { enabled: true },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.validationErrors).toEqual(['"apeKeyId" must be a valid id']);
    });

    it.each([
      ['an invalid name', { name: 'no spaces allowed' }],
      ['an empty name', { name: '' }],
      ['enabled as a number', { enabled: 1 }],
      ['an unknown field', { enabled: true, hash: 'x' }],
    ])('refuses %s: 422', async (_label, body) => {
      const user = await newUser();
      const key = await generateKey(t, user.auth);
      const res = await t.request('PATCH', `/ape-keys/${key.apeKeyId}`, { auth: user.auth, body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect((await list(user.auth))[key.apeKeyId]).toEqual(key.apeKeyDetails);
    });
  });

  describe('DELETE /ape-keys/{apeKeyId}', () => {
    it('deletes an own key; deleting it again is 404', async () => {
      const user = await newUser();
      const keep = await generateKey(t, user.auth, { name: 'keep', enabled: true });
      const gone = await generateKey(t, user.auth, { name: 'gone', enabled: true });
      const res = await t.request('DELETE', `/ape-keys/${gone.apeKeyId}`, { auth: user.auth });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: 'ApeKey deleted', data: null });
      expect(Object.keys(await list(user.auth))).toEqual([keep.apeKeyId]);
      const again = await t.request('DELETE', `/ape-keys/${gone.apeKeyId}`, { auth: user.auth });
      expect(again.status).toBe(404);
      expect(again.body.message).toBe('ApeKey not found');
    });

    it("answers another user's key with 404 and keeps it; a malformed id with 400", async () => {
      const owner = await newUser();
      const intruder = await newUser();
      const key = await generateKey(t, owner.auth);
      const res = await t.request('DELETE', `/ape-keys/${key.apeKeyId}`, { auth: intruder.auth });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('ApeKey not found');
      expect(Object.keys(await list(owner.auth))).toEqual([key.apeKeyId]);
      expect((await t.request('DELETE', '/ape-keys/a%20b', { auth: owner.auth })).status).toBe(400);
    });
  });

  describe('rate limits', () => {
    it("POST, PATCH and DELETE share one class of the original's 15 per hour; GET has its own", async () => {
      const user = await newUser();
      const unknown = '/ape-keys/0123456789abcdef01234567';
      for (let i = 0; i < 5; i++) {
        const res = await t.request('POST', '/ape-keys', {
          auth: user.auth,
          body: { name: `r${i}`, enabled: true },
        });
        expect(res.status).toBe(200);
        expect((await t.request('PATCH', unknown, { auth: user.auth, body: { enabled: true } })).status).toBe(
          404,
        );
        expect((await t.request('DELETE', unknown, { auth: user.auth })).status).toBe(404);
      }
      const limited = await t.request('DELETE', unknown, { auth: user.auth });
      expect(limited.status).toBe(429);
      expect(limited.body.message).toBe('Request limit reached, please try again later.');
      expect((await t.request('GET', '/ape-keys', { auth: user.auth })).status).toBe(200);
    });
  });
});
