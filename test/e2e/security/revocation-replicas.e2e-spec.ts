import type Redis from 'ioredis';
import { REVOCATION_RECHECK_MS, TokenVerifierService } from '../../../src/common/auth/token-verifier.service';
import { redisKeys } from '../../../src/infra/redis/keys';
import { createUser } from '../../support/factories';
import { createTestStores } from '../../support/stores';
import { createTestApp, type TestApp } from '../../support/test-app';

/** The private pub/sub connection of a replica's token verifier (the path a dropped connection loses). */
function subscriberOf(t: TestApp): Redis {
  return (t.app.get(TokenVerifierService) as unknown as { subscriber: Redis }).subscriber;
}

/**
 * `POST /users/revokeAllTokens` through replica A while replica B's subscriber misses the eviction message: B must
 * refuse the revoked token it has cached (issue 14, item 3). Both replicas share PostgreSQL and Redis.
 */
describe('token revocation across replicas', () => {
  let a: TestApp;
  let b: TestApp;
  const now = Date.UTC(2026, 10, 24, 12, 0, 0, 500);

  beforeAll(async () => {
    const stores = await createTestStores();
    a = await createTestApp({ stores, now });
    b = await createTestApp({ stores, now });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  const advanceBoth = (ms: number) => {
    a.clock.advance(ms);
    b.clock.advance(ms);
  };

  it('refuses on B, from its token cache, a token revoked through A while B heard nothing', async () => {
    const { uid } = await createUser(a.db);
    const token = await b.bearer(uid);
    expect((await b.request('GET', '/users', { auth: token })).status).toBe(200); // cached on B

    // B misses the broadcast, as when its subscriber connection drops and reconnects.
    await subscriberOf(b).unsubscribe(redisKeys.authEvictChannel());

    advanceBoth(REVOCATION_RECHECK_MS);
    const revoke = await a.request('POST', '/users/revokeAllTokens', { auth: await a.bearer(uid) });
    expect(revoke.status).toBe(200);
    expect((await a.request('GET', '/users', { auth: token })).status).toBe(401);

    const onB = await b.request('GET', '/users', { auth: token });
    expect(onB.status).toBe(401);
    expect(onB.body).toEqual({ message: 'Token revoked - please login again', data: null });

    advanceBoth(20_000);
    expect((await b.request('GET', '/users', { auth: token })).status).toBe(401);

    // A token issued after the revocation works on both replicas.
    advanceBoth(1000);
    const fresh = await b.bearer(uid);
    expect((await b.request('GET', '/users', { auth: fresh })).status).toBe(200);
    expect((await a.request('GET', '/users', { auth: fresh })).status).toBe(200);
  });

  it('re-reads the marker on a cache hit at most every REVOCATION_RECHECK_MS', async () => {
    const { uid } = await createUser(a.db);
    const token = await b.bearer(uid);
    expect((await b.request('GET', '/users', { auth: token })).status).toBe(200);
    // Revoke behind B's back (no broadcast at all) and wait out the recheck interval.
    await b.redis.set(redisKeys.tokensRevokedBefore(uid), String(b.clock.now() + 1000), 'PX', 3600_000);
    advanceBoth(REVOCATION_RECHECK_MS);
    const res = await b.request('GET', '/users', { auth: token });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe('Token revoked - please login again');
  });
});
