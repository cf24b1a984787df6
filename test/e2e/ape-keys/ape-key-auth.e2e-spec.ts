import { Controller, Get, Module } from '@nestjs/common';
import bcrypt from 'bcrypt';
import { AccountLifecycle } from '../../../src/common/account-lifecycle';
import { formatApeKey } from '../../../src/common/auth/ape-key-authenticator';
import { AcceptsApeKey, Auth, RateLimit } from '../../../src/common/auth/policy.decorators';
import { ok } from '../../../src/common/http/envelope';
import type { AuthContext } from '../../../src/common/http/request-context';
import { AdminService } from '../../../src/modules/admin/admin.service';
import {
  LAST_USED_WRITE_INTERVAL_MS,
  VERIFICATION_TTL_MS,
} from '../../../src/modules/ape-keys/ape-key-verifier.service';
import type { ApeKeyDetails, GeneratedApeKey } from '../../../src/modules/ape-keys/ape-keys.types';
import { createUser } from '../../support/factories';
import { ProbeModule } from '../../support/probe.module';
import { createTestApp, type TestApp } from '../../support/test-app';
import { seedConnection } from '../connections/support';
import { generateKey, TEST_CONFIGURATION } from './support';

/** An ApeKey route with a normal rate-limit class only, so ApeKey calls fall to the default ApeKey class. */
@Controller('ape-rate-probe')
class ApeRateProbeController {
  @Get()
  @AcceptsApeKey()
  @RateLimit('status')
  get(@Auth() auth: AuthContext) {
    return ok('probe', auth.type);
  }
}
@Module({ controllers: [ApeRateProbeController] })
class ApeRateProbeModule {}

const ENV = { rateLimit: { globalPerMinute: 100_000, overrides: { defaultApeKey: { max: 3 } } } };

describe('ApeKey authentication', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      configuration: TEST_CONFIGURATION,
      env: ENV,
      extraModules: [ProbeModule, ApeRateProbeModule],
    });
  });
  afterAll(() => t.close());

  const owner = async () => {
    const { uid } = await createUser(t.db);
    return { uid, auth: await t.bearer(uid) };
  };
  const use = (key: string, url = '/probe/ape', ip?: string) =>
    t.request('GET', url, { auth: `ApeKey ${key}`, ip });
  const setEnabled = (auth: string, id: string, enabled: boolean) =>
    t.request('PATCH', `/ape-keys/${id}`, { auth, body: { enabled } });
  const details = async (auth: string, id: string) => {
    const res = await t.request<{ data: Record<string, ApeKeyDetails> }>('GET', '/ape-keys', { auth });
    return res.body.data[id];
  };

  it('walks a key through enabled → disabled → enabled → deleted on accepting and non-accepting routes', async () => {
    const user = await owner();
    const key = await generateKey(t, user.auth);
    const expectState = async (accepting: { status: number; message?: string }) => {
      const res = await use(key.apeKey);
      expect(res.status).toBe(accepting.status);
      if (accepting.message) expect(res.body).toEqual({ message: accepting.message, data: null });
      else
        expect(res.body.data).toEqual({ type: 'ApeKey', uid: user.uid, email: '', apeKeyId: key.apeKeyId });
      // Routes without @AcceptsApeKey refuse keys in every state, fresh-token routes included.
      for (const [method, url] of [
        ['GET', '/probe/bearer'],
        ['POST', '/probe/fresh'],
        ['GET', '/connections'],
        ['GET', '/users/friends'],
        ['GET', '/ape-keys'],
      ] as const) {
        const refused = await t.request(method, url, { auth: `ApeKey ${key.apeKey}` });
        expect(refused.status).toBe(401);
        expect(refused.body.message).toBe('This endpoint does not accept ApeKeys');
      }
    };

    await expectState({ status: 200 });
    expect((await setEnabled(user.auth, key.apeKeyId, false)).status).toBe(200);
    await expectState({ status: 470, message: 'ApeKey is disabled' });
    expect((await setEnabled(user.auth, key.apeKeyId, true)).status).toBe(200);
    await expectState({ status: 200 });
    expect((await t.request('DELETE', `/ape-keys/${key.apeKeyId}`, { auth: user.auth })).status).toBe(200);
    await expectState({ status: 404, message: 'ApeKey not found' });
  });

  it('refuses a key generated disabled until it is enabled', async () => {
    const user = await owner();
    const key = await generateKey(t, user.auth, { name: 'off', enabled: false });
    expect((await use(key.apeKey)).status).toBe(470);
    await setEnabled(user.auth, key.apeKeyId, true);
    expect((await use(key.apeKey)).status).toBe(200);
  });

  it('identifies the caller on a public route', async () => {
    const user = await owner();
    const key = await generateKey(t, user.auth);
    const res = await use(key.apeKey, '/probe/public');
    expect(res.status).toBe(200);
    expect((res.body.data as AuthContext).uid).toBe(user.uid);
  });

  it.each([
    ['not base64url', '***'],
    ['a Bearer-like token', 'eyJhbGciOi.eyJzdWIiOi.c2lnbmF0dXJl'],
    ['no dot', Buffer.from('nodotatallinthisvalue').toString('base64url')],
    ['an empty id', Buffer.from(`.${'s'.repeat(32)}`).toString('base64url')],
    ['an empty secret', Buffer.from('0123456789abcdef01234567.').toString('base64url')],
    ['a short secret', Buffer.from('0123456789abcdef01234567.short').toString('base64url')],
    [
      'a secret with other characters',
      Buffer.from(`0123456789abcdef01234567.${'+/'.repeat(16)}`).toString('base64url'),
    ],
    ['an id with a space', Buffer.from(`a b.${'s'.repeat(32)}`).toString('base64url')],
    ['an over-long value', 'A'.repeat(1100)],
  ])('answers a malformed key (%s) with 471', async (_label, value) => {
    const res = await use(value);
    expect(res.status).toBe(471);
    expect(res.body).toEqual({ message: 'ApeKey structure is invalid', data: null });
  });

  it('answers an unknown id, and a known id with a wrong secret, with 404 ApeKey not found', async () => {
    const user = await owner();
    await t.configure({ apeKeys: { apeKeyBytes: 64 } });
    let key: GeneratedApeKey;
    try {
      key = await generateKey(t, user.auth);
    } finally {
      await t.configure({ apeKeys: { apeKeyBytes: 24 } });
    }
    const secret = Buffer.from(key.apeKey, 'base64url').toString('utf8').split('.')[1] as string;
    const lastSwapped = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    for (const presented of [
      formatApeKey('0123456789abcdef01234567', secret),
      formatApeKey(key.apeKeyId, 'S'.repeat(32)),
      // bcrypt reads 72 bytes; every character of an 86-character secret still counts.
      formatApeKey(key.apeKeyId, lastSwapped),
    ]) {
      const res = await use(presented);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: 'ApeKey not found', data: null });
    }
    expect((await use(key.apeKey)).status).toBe(200);
  });

  it('answers 503 to every key while apeKeys.acceptKeys is false; management switch does not matter', async () => {
    const user = await owner();
    const key = await generateKey(t, user.auth);
    await t.configure({ apeKeys: { acceptKeys: false } });
    try {
      for (const url of ['/probe/ape', '/probe/bearer']) {
        const res = await use(key.apeKey, url);
        expect(res.status).toBe(503);
        expect(res.body.message).toBe('ApeKeys are not being accepted at this time');
      }
    } finally {
      await t.configure({ apeKeys: { acceptKeys: true } });
    }
    await t.configure({ apeKeys: { endpointsEnabled: false } });
    try {
      expect((await use(key.apeKey)).status).toBe(200);
    } finally {
      await t.configure({ apeKeys: { endpointsEnabled: true } });
    }
  });

  it(`records lastUsedOn on use, then at most once per ${LAST_USED_WRITE_INTERVAL_MS / 1000} s per key`, async () => {
    const user = await owner();
    const key = await generateKey(t, user.auth);
    expect((await details(user.auth, key.apeKeyId))?.lastUsedOn).toBe(-1);

    t.clock.advance(1000);
    const firstUse = t.clock.now();
    expect((await use(key.apeKey)).status).toBe(200);
    expect((await details(user.auth, key.apeKeyId))?.lastUsedOn).toBe(firstUse);

    t.clock.advance(LAST_USED_WRITE_INTERVAL_MS - 1);
    expect((await use(key.apeKey)).status).toBe(200);
    expect((await details(user.auth, key.apeKeyId))?.lastUsedOn).toBe(firstUse);

    t.clock.advance(1);
    expect((await use(key.apeKey)).status).toBe(200);
    expect((await details(user.auth, key.apeKeyId))?.lastUsedOn).toBe(t.clock.now());

    // Refused uses are not uses.
    const lastUse = t.clock.now();
    await setEnabled(user.auth, key.apeKeyId, false);
    t.clock.advance(LAST_USED_WRITE_INTERVAL_MS * 3);
    expect((await use(key.apeKey)).status).toBe(470);
    expect((await details(user.auth, key.apeKeyId))?.lastUsedOn).toBe(lastUse);
  });

  describe('verification cache', () => {
    it('checks the secret once for many uses, concurrent first uses included', async () => {
      const user = await owner();
      const key = await generateKey(t, user.auth);
      const compare = jest.spyOn(bcrypt, 'compare');
      try {
        const first = await Promise.all(Array.from({ length: 8 }, () => use(key.apeKey)));
        expect(first.map((r) => r.status)).toEqual(Array(8).fill(200));
        for (let i = 0; i < 8; i++) expect((await use(key.apeKey)).status).toBe(200);
        expect(compare).toHaveBeenCalledTimes(1);
      } finally {
        compare.mockRestore();
      }
    });

    it(`keeps an answer at most ${VERIFICATION_TTL_MS / 1000} s (a change behind the service's back)`, async () => {
      const user = await owner();
      const key = await generateKey(t, user.auth);
      expect((await use(key.apeKey)).status).toBe(200);
      await t.db.deleteFrom('ape_keys').where('id', '=', key.apeKeyId).execute();
      t.clock.advance(VERIFICATION_TTL_MS - 1);
      expect((await use(key.apeKey)).status).toBe(200);
      t.clock.advance(1);
      expect((await use(key.apeKey)).status).toBe(404);
    });

    it('refuses a disabled key on the very next request, and a deleted one too', async () => {
      const user = await owner();
      const a = await generateKey(t, user.auth, { name: 'a', enabled: true });
      const b = await generateKey(t, user.auth, { name: 'b', enabled: true });
      expect((await use(a.apeKey)).status).toBe(200);
      expect((await use(b.apeKey)).status).toBe(200);
      await setEnabled(user.auth, a.apeKeyId, false);
      expect((await use(a.apeKey)).status).toBe(470);
      expect((await use(b.apeKey)).status).toBe(200);
      await t.request('DELETE', `/ape-keys/${b.apeKeyId}`, { auth: user.auth });
      expect((await use(b.apeKey)).status).toBe(404);
    });

    it("drops a user's keys when the user is banned (the next request reads the key again)", async () => {
      const user = await owner();
      const key = await generateKey(t, user.auth);
      expect((await use(key.apeKey)).status).toBe(200);
      // Disabled behind the service's back: only an eviction makes it visible before the TTL.
      await t.db.updateTable('ape_keys').set({ enabled: false }).where('id', '=', key.apeKeyId).execute();
      expect((await use(key.apeKey)).status).toBe(200);
      await t.app.get(AdminService).setBanned(user.uid, true);
      expect((await use(key.apeKey)).status).toBe(470);
    });

    it("drops a deleted user's keys: ApeKey not found rather than a cached answer", async () => {
      const user = await owner();
      const key = await generateKey(t, user.auth);
      expect((await use(key.apeKey)).status).toBe(200);
      await t.db.deleteFrom('users').where('uid', '=', user.uid).execute(); // cascades to ape_keys
      await t.app.get(AccountLifecycle).notify('delete', user.uid);
      const res = await use(key.apeKey);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('ApeKey not found');
    });

    it('an account reset deletes the keys (and drops them from the cache) but keeps connections', async () => {
      const user = await owner();
      const friend = await createUser(t.db);
      const connectionId = await seedConnection(t, user.uid, friend.uid, 'accepted');
      const key = await generateKey(t, user.auth);
      expect((await use(key.apeKey)).status).toBe(200);
      const lifecycle = t.app.get(AccountLifecycle);
      await t.db.transaction().execute((trx) => lifecycle.runReset(user.uid, trx));
      await lifecycle.notify('reset', user.uid);
      expect((await use(key.apeKey)).status).toBe(404);
      expect(await t.db.selectFrom('ape_keys').select('id').where('uid', '=', user.uid).execute()).toEqual(
        [],
      );
      expect(
        await t.db.selectFrom('connections').select('id').where('id', '=', connectionId).executeTakeFirst(),
      ).toEqual({ id: connectionId });
    });

    it('drops the key on another replica too (Redis pub/sub)', async () => {
      const replica = await createTestApp({
        stores: t.stores,
        configuration: TEST_CONFIGURATION,
        env: ENV,
        extraModules: [ProbeModule],
      });
      try {
        const user = await owner();
        const key = await generateKey(t, user.auth);
        const onReplica = () => replica.request('GET', '/probe/ape', { auth: `ApeKey ${key.apeKey}` });
        expect((await onReplica()).status).toBe(200);
        await setEnabled(user.auth, key.apeKeyId, false);
        const deadline = Date.now() + 2000;
        let status = (await onReplica()).status;
        while (status === 200 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 10));
          status = (await onReplica()).status;
        }
        expect(status).toBe(470);
      } finally {
        await replica.close();
      }
    });
  });

  it('counts bad keys as bad authentication attempts', async () => {
    const user = await owner();
    const key = await generateKey(t, user.auth);
    const disabled = await generateKey(t, user.auth, { name: 'off', enabled: false });
    const ip = '10.7.0.1';
    await t.configure({ rateLimiting: { badAuthentication: { maxAttempts: 3 } } });
    try {
      expect((await use('***', '/probe/ape', ip)).status).toBe(471);
      expect(
        (await use(formatApeKey('0123456789abcdef01234567', 'S'.repeat(32)), '/probe/ape', ip)).status,
      ).toBe(404);
      expect((await use(disabled.apeKey, '/probe/ape', ip)).status).toBe(470);
      const banned = await use(key.apeKey, '/probe/ape', ip);
      expect(banned.status).toBe(429);
      expect(banned.body.message).toBe('Too many bad authentication attempts');
      expect((await use(key.apeKey, '/probe/ape', '10.7.0.2')).status).toBe(200);
    } finally {
      await t.configure({ rateLimiting: { badAuthentication: { maxAttempts: 100_000 } } });
    }
  });

  it('rate-limits ApeKey calls with the ApeKey class, apart from Bearer calls', async () => {
    const user = await owner();
    const key = await generateKey(t, user.auth);
    for (let i = 0; i < 3; i++) expect((await use(key.apeKey, '/ape-rate-probe')).status).toBe(200);
    const limited = await use(key.apeKey, '/ape-rate-probe');
    expect(limited.status).toBe(429);
    expect(limited.body.message).toBe('Request limit reached, please try again later.');
    const bearer = await t.request('GET', '/ape-rate-probe', { auth: user.auth });
    expect(bearer.status).toBe(200);
    expect(bearer.body.data).toBe('Bearer');
  });
});
