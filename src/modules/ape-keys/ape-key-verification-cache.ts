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
 * Evictions bump a generation counter: a verification that started before an eviction (it may have read the key
 * before it was disabled) must not put its answer into the cache afterwards.
 */
export class ApeKeyVerificationCache {
  private readonly entries: LRUCache<string, CachedVerification>;
  private generationCounter = 0;

  constructor(max: number) {
    this.entries = new LRUCache({ max });
  }

  get generation(): number {
    return this.generationCounter;
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

  /** Stores the answer of a verification begun at `startedAt` (a generation); false when an eviction came between. */
  set(hash: string, entry: CachedVerification, startedAt: number): boolean {
    if (startedAt !== this.generationCounter) return false;
    this.entries.set(hash, entry);
    return true;
  }

  evictKey(keyId: string): void {
    this.evictWhere((entry) => entry.keyId === keyId);
  }

  evictUser(uid: string): void {
    this.evictWhere((entry) => entry.uid === uid);
  }

  // A linear scan: evictions are rare (a key disabled or deleted, a user banned, reset or deleted) and the cache small.
  private evictWhere(match: (entry: CachedVerification) => boolean): void {
    this.generationCounter += 1;
    for (const [hash, entry] of this.entries.entries()) {
      if (match(entry)) this.entries.delete(hash);
    }
  }
}
