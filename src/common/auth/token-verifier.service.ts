import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { APP_ENV, type AppEnv } from '../../config/env';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { Clock } from '../clock';
import { IdentityProvider, TokenError, type VerifiedToken } from './identity-provider';

interface CachedToken {
  token: VerifiedToken;
}

/**
 * Verifies Bearer tokens through the identity provider, with a bounded cache keyed by the token's SHA-256 (the token
 * itself is never kept) whose entries never outlive the token's `exp`. Routes that turn caching off (fresh-token and
 * permission-sensitive routes) always go to the provider. Revocation: the provider's own check plus the service's
 * store (tokens of a user issued before their "revoked before" instant are refused); revoking drops the user's cached
 * tokens on every replica at once through Redis pub/sub.
 */
@Injectable()
export class TokenVerifierService implements OnModuleInit, OnModuleDestroy {
  private readonly cache: LRUCache<string, CachedToken> | null;
  private readonly uidsByHash = new Map<string, string>();
  private subscriber: Redis | null = null;
  private readonly logger = new Logger(TokenVerifierService.name);

  constructor(
    private readonly provider: IdentityProvider,
    private readonly clock: Clock,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.cache =
      env.tokenCacheSize > 0
        ? new LRUCache<string, CachedToken>({
            max: env.tokenCacheSize,
            ttlAutopurge: false,
            dispose: (_value, key) => this.uidsByHash.delete(key),
          })
        : null;
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
      if (hit && hit.token.expiresAt > now) return hit.token;
    }
    // Every verification that reaches the provider also checks revocation; revoking evicts cached tokens, so a
    // revoked token is refused everywhere from the next request on.
    const verified = await this.provider.verifyIdToken(token, true);
    if (verified.expiresAt <= now) throw new TokenError('expired');
    const revokedBefore = Number((await this.redis.get(redisKeys.tokensRevokedBefore(verified.uid))) ?? 0);
    if (verified.issuedAt < revokedBefore) throw new TokenError('revoked');
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

  /** Drops the user's cached tokens on every replica (revocation, account deletion). */
  async evictEverywhere(uid: string): Promise<void> {
    this.evictLocal(uid);
    await this.redis.publish(redisKeys.authEvictChannel(), uid).catch((e: Error) => {
      this.logger.warn({ uid, err: e.message }, 'could not broadcast token eviction');
    });
  }

  private evictLocal(uid: string): void {
    if (!this.cache) return;
    for (const [hash, owner] of this.uidsByHash) {
      if (owner === uid) this.cache.delete(hash);
    }
  }
}
