import { LRUCache } from 'lru-cache';

export interface CachedVerification {
  uid: string;
  keyId: string;
  expiresAt: number;
  /** When this replica last wrote `last_used_on` for the key. */
  lastUsedWrittenAt: number;
}

/**
 * Successful ApeKey verifications, keyed by the SHA-256 of the presented key, bounded in size and short-lived.
 * A verification that was under way when its key or user was evicted (it may have read the key before it was
 * disabled) must not put its answer into the cache afterwards: every eviction advances a counter, remembered per
 * key and per user, and `set` compares it with the counter the verification started at.
 */
export class ApeKeyVerificationCache {
  private readonly entries: LRUCache<string, CachedVerification>;
  private readonly evictedAt: LRUCache<string, number>;
  private evictions = 0;

  constructor(max: number) {
    this.entries = new LRUCache({ max });
    this.evictedAt = new LRUCache({ max });
  }

  /** Take this before reading the key from the store; pass it to `set`. */
  begin(): number {
    return this.evictions;
  }

  get size(): number {
    return this.entries.size;
  }

  get(hash: string, now: number): CachedVerification | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry;
  }

  /** Stores the answer of a verification begun at `startedAt`; false when its key or user was evicted since. */
  set(hash: string, entry: CachedVerification, startedAt: number): boolean {
    const lastEviction = Math.max(
      this.evictedAt.get(`key:${entry.keyId}`) ?? -1,
      this.evictedAt.get(`user:${entry.uid}`) ?? -1,
    );
    if (lastEviction > startedAt) return false;
    this.entries.set(hash, entry);
    return true;
  }

  evictKey(keyId: string): void {
    this.evictWhere(`key:${keyId}`, (entry) => entry.keyId === keyId);
  }

  evictUser(uid: string): void {
    this.evictWhere(`user:${uid}`, (entry) => entry.uid === uid);
  }

  // A linear scan: evictions are rare (a key disabled or deleted, a user banned, reset or deleted) and the cache small.
  private evictWhere(subject: string, match: (entry: CachedVerification) => boolean): void {
    this.evictions += 1;
    this.evictedAt.set(subject, this.evictions);
    for (const [hash, entry] of this.entries.entries()) {
      if (match(entry)) this.entries.delete(hash);
    }
  }
}
