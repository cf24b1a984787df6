import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { compare } from 'bcrypt';
import {
  ApeKeyAuthenticator,
  type ApeKeyCheck,
  type ApeKeyVerifier,
  type PresentedApeKey,
} from '../../common/auth/ape-key-authenticator';
import { Clock } from '../../common/clock';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { bcryptInputFor, presentedKeyHash } from './ape-key-secret';
import { ApeKeyVerificationCache } from './ape-key-verification-cache';
import { ApeKeysRepository } from './ape-keys.repository';
import { CacheStatsRegistry } from '../../common/cache-stats';

/**
 * A successful verification is reused this long. Disabling or deleting a key, and banning, resetting or deleting its
 * user, drop it at once on every replica (pub/sub); the TTL only bounds the damage of a lost message.
 */
export const VERIFICATION_TTL_MS = 60_000;
/** `lastUsedOn` is written on the first use a replica verifies, then at most once per this interval per key. */
export const LAST_USED_WRITE_INTERVAL_MS = 30_000;
const CACHE_SIZE = 10_000;

type Eviction = { keyId: string } | { uid: string };

/**
 * Verifies presented ApeKeys for the auth guard. bcrypt costs tens of milliseconds at production cost factors, so a
 * success is cached (keyed by the SHA-256 of the presented key) and concurrent first uses of one key share one check:
 * a polling script costs a hash lookup, not a core.
 */
@Injectable()
export class ApeKeyVerifierService implements ApeKeyVerifier, OnModuleInit, OnModuleDestroy {
  private readonly cache = new ApeKeyVerificationCache(CACHE_SIZE);
  private readonly inflight = new Map<string, { keyId: string; check: Promise<ApeKeyCheck> }>();
  private subscriber: Redis | null = null;
  private readonly logger = new Logger(ApeKeyVerifierService.name);

  constructor(
    private readonly repository: ApeKeysRepository,
    private readonly authenticator: ApeKeyAuthenticator,
    private readonly clock: Clock,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly stats: CacheStatsRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    this.authenticator.register(this);
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (_channel: string, message: string) => this.onEviction(message));
    await this.subscriber.subscribe(redisKeys.apeKeyEvictChannel());
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }

  async verify(key: PresentedApeKey): Promise<ApeKeyCheck> {
    const hash = presentedKeyHash(key.raw);
    const now = this.clock.now();
    const hit = this.cache.get(hash, now);
    this.stats.apeKey.record(hit !== undefined);
    if (hit) {
      if (now - hit.lastUsedWrittenAt >= LAST_USED_WRITE_INTERVAL_MS) {
        hit.lastUsedWrittenAt = now;
        await this.touch(hit.keyId, now);
      }
      return { status: 'valid', uid: hit.uid, keyId: hit.keyId };
    }
    const pending = this.inflight.get(hash);
    if (pending) return pending.check;
    const check = this.verifyAgainstStore(key, hash).finally(() => {
      if (this.inflight.get(hash)?.check === check) this.inflight.delete(hash);
    });
    this.inflight.set(hash, { keyId: key.keyId, check });
    return check;
  }

  /** Drops cached verifications of a key on every replica (disabled, deleted). */
  evictKey(keyId: string): Promise<void> {
    return this.broadcast({ keyId });
  }

  /** Drops cached verifications of every key of a user on every replica (banned, reset, deleted). */
  evictUser(uid: string): Promise<void> {
    return this.broadcast({ uid });
  }

  private async verifyAgainstStore(key: PresentedApeKey, hash: string): Promise<ApeKeyCheck> {
    const startedAt = this.cache.begin();
    const stored = await this.repository.findForVerification(key.keyId);
    // Unknown id and wrong secret answer alike (docs/decisions/0012-ape-keys.md), and the secret is checked before
    // the enabled flag, so a key id alone reveals nothing.
    if (!stored || !(await compare(bcryptInputFor(stored.scheme, key.secret), stored.hash)))
      return { status: 'not-found' };
    if (!stored.enabled) return { status: 'disabled' };
    const now = this.clock.now();
    await this.touch(key.keyId, now);
    this.cache.set(
      hash,
      { uid: stored.uid, keyId: key.keyId, expiresAt: now + VERIFICATION_TTL_MS, lastUsedWrittenAt: now },
      startedAt,
    );
    return { status: 'valid', uid: stored.uid, keyId: key.keyId };
  }

  private async touch(keyId: string, now: number): Promise<void> {
    // The request was authenticated; a failed bookkeeping write must not fail it.
    await this.repository.touchLastUsed(keyId, now).catch((e: Error) => {
      this.logger.warn({ keyId, err: e.message }, 'could not record ApeKey use');
    });
  }

  private async broadcast(eviction: Eviction): Promise<void> {
    this.evictLocal(eviction);
    await this.redis.publish(redisKeys.apeKeyEvictChannel(), JSON.stringify(eviction)).catch((e: Error) => {
      this.logger.error({ ...eviction, err: e.message }, 'could not broadcast ApeKey cache eviction');
    });
  }

  private onEviction(message: string): void {
    let parsed: { keyId?: unknown; uid?: unknown } | null = null;
    try {
      parsed = JSON.parse(message) as { keyId?: unknown; uid?: unknown } | null;
    } catch {
      // reported below
    }
    if (typeof parsed?.keyId === 'string') this.evictLocal({ keyId: parsed.keyId });
    else if (typeof parsed?.uid === 'string') this.evictLocal({ uid: parsed.uid });
    else this.logger.warn({ message }, 'ignored malformed ApeKey eviction message');
  }

  private evictLocal(eviction: Eviction): void {
    // Checks already under way may have read the key before the change; later requests must not join them.
    if ('keyId' in eviction) {
      for (const [hash, pending] of this.inflight)
        if (pending.keyId === eviction.keyId) this.inflight.delete(hash);
      this.cache.evictKey(eviction.keyId);
    } else {
      this.inflight.clear();
      this.cache.evictUser(eviction.uid);
    }
  }
}
