import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_ENV, type AppEnv } from '../../config/env';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { Clock } from '../clock';
import { IdentityProvider, TokenError, type VerifiedToken } from './identity-provider';
import { assertTokenTimes } from './token-times';
import { CacheStatsRegistry } from '../cache-stats';

interface CachedToken {
  token: VerifiedToken;
}

interface RevocationMarker {
  revokedBefore: number;
  readAt: number;
}

/**
 * How long a replica trusts its last read of a user's revocation marker. Pub/sub eviction is the fast path, but a
 * subscriber that drops and reconnects misses messages, so a cache hit re-reads the marker (one Redis GET) at most
 * this often per user: a revocation reaches every replica within this time even when the broadcast is lost.
 */
export const REVOCATION_RECHECK_MS = 1000;

/**
 * Verifies Bearer tokens through the identity provider, with a bounded cache keyed by the token's SHA-256 (the token
 * itself is never kept) whose entries never outlive the token's `exp`. Routes that turn caching off (fresh-token and
 * permission-sensitive routes) always go to the provider. Revocation: the provider's own check plus the service's
 * store (tokens of a user issued before their "revoked before" instant are refused), read on every verification —
 * on a cache hit too, remembered for at most `REVOCATION_RECHECK_MS`. Revoking also drops the user's cached tokens
 * on every replica at once through Redis pub/sub; that broadcast can be missed, the marker read cannot.
 */
@Injectable()
export class TokenVerifierService implements OnModuleInit, OnModuleDestroy {
  private readonly cache: LRUCache<string, CachedToken> | null;
  private readonly uidsByHash = new Map<string, string>();
  private readonly markers: LRUCache<string, RevocationMarker>;
  private subscriber: Redis | null = null;
  private readonly logger = new Logger(TokenVerifierService.name);

  constructor(
    private readonly provider: IdentityProvider,
    private readonly clock: Clock,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_ENV) env: AppEnv,
    private readonly stats: CacheStatsRegistry,
  ) {
    this.cache =
      env.tokenCacheSize > 0
        ? new LRUCache<string, CachedToken>({
            max: env.tokenCacheSize,
            ttlAutopurge: false,
            dispose: (_value, key) => this.uidsByHash.delete(key),
          })
        : null;
    this.markers = new LRUCache<string, RevocationMarker>({ max: Math.max(1000, env.tokenCacheSize) });
  }

  async onModuleInit(): Promise<void> {
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (_channel: string, uid: string) => this.evictLocal(uid));
    await this.subscriber.subscribe(redisKeys.authEvictChannel());
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }

  async verify(token: string, options: { useCache: boolean }): Promise<VerifiedToken> {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = this.clock.now();
    if (options.useCache && this.cache) {
      const hit = this.cache.get(key);
      this.stats.token.record(hit !== undefined && hit.token.expiresAt > now);
      if (hit && hit.token.expiresAt > now) {
        if (hit.token.issuedAt < (await this.revokedBefore(hit.token.uid, now, true))) {
          this.cache.delete(key);
          throw new TokenError('revoked');
        }
        return hit.token;
      }
    }
    const verified = await this.provider.verifyIdToken(token, true);
    if (verified.expiresAt <= now) throw new TokenError('expired');
    assertTokenTimes(verified, now);
    if (verified.issuedAt < (await this.revokedBefore(verified.uid, now, false)))
      throw new TokenError('revoked');
    if (this.cache) {
      this.cache.set(key, { token: verified }, { ttl: Math.max(1, verified.expiresAt - now) });
      this.uidsByHash.set(key, verified.uid);
    }
    return verified;
  }

  /**
   * Every token of `uid` issued up to now counts as revoked from here on, on every replica. The marker outlives the
   * longest token life (1 hour) by a margin.
   */
  async revokeAll(uid: string): Promise<void> {
    // Token `iat` has second precision; a token minted in this very second is revoked too.
    const revokedBefore = Math.floor(this.clock.now() / 1000) * 1000 + 1000;
    await this.redis.set(redisKeys.tokensRevokedBefore(uid), String(revokedBefore), 'PX', 2 * 3600_000);
    await this.provider.revokeRefreshTokens(uid);
    await this.evictEverywhere(uid);
  }

  /**
   * The user's "revoked before" instant (0 when never revoked). A cache hit may use a read younger than
   * `REVOCATION_RECHECK_MS`; a full verification always reads Redis.
   */
  private async revokedBefore(uid: string, now: number, mayReuse: boolean): Promise<number> {
    const known = this.markers.get(uid);
    if (mayReuse && known && now - known.readAt < REVOCATION_RECHECK_MS && known.readAt <= now)
      return known.revokedBefore;
    let raw: string | null;
    try {
      raw = await this.redis.get(redisKeys.tokensRevokedBefore(uid));
    } catch (e) {
      // A token this replica already verified keeps working through a Redis outage (degraded mode,
      // docs/decisions/0022-store-outages-degrade.md) with the last marker seen; a token never seen is not accepted
      // unchecked (the error answers 503).
      if (!mayReuse) throw e;
      this.logger.warn({ uid, err: (e as Error).message }, 'could not re-read the revocation marker');
      return known?.revokedBefore ?? 0;
    }
    const revokedBefore = Number(raw ?? 0);
    this.markers.set(uid, { revokedBefore, readAt: now });
    return revokedBefore;
  }

  /** Drops the user's cached tokens on every replica (revocation, account deletion). */
  async evictEverywhere(uid: string): Promise<void> {
    this.evictLocal(uid);
    await this.redis.publish(redisKeys.authEvictChannel(), uid).catch((e: Error) => {
      this.logger.warn({ uid, err: e.message }, 'could not broadcast token eviction');
    });
  }

  private evictLocal(uid: string): void {
    this.markers.delete(uid);
    if (!this.cache) return;
    for (const [hash, owner] of this.uidsByHash) {
      if (owner === uid) this.cache.delete(hash);
    }
  }
}
