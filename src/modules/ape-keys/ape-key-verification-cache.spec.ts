import { ApeKeyVerificationCache, type CachedVerification } from './ape-key-verification-cache';

const entry = (overrides: Partial<CachedVerification> = {}): CachedVerification => ({
  uid: 'u1',
  keyId: 'k1',
  expiresAt: 1_000,
  lastUsedWrittenAt: 0,
  ...overrides,
});

describe('ApeKeyVerificationCache', () => {
  it('answers until the entry expires, then forgets it', () => {
    const cache = new ApeKeyVerificationCache(10);
    expect(cache.set('h1', entry(), cache.generation)).toBe(true);
    expect(cache.get('h1', 999)?.uid).toBe('u1');
    expect(cache.get('h1', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts every entry of a key, and only those', () => {
    const cache = new ApeKeyVerificationCache(10);
    cache.set('h1', entry(), cache.generation);
    cache.set('h1-padded', entry(), cache.generation);
    cache.set('h2', entry({ keyId: 'k2' }), cache.generation);
    cache.evictKey('k1');
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.get('h1-padded', 0)).toBeUndefined();
    expect(cache.get('h2', 0)?.keyId).toBe('k2');
  });

  it('evicts every entry of a user, and only those', () => {
    const cache = new ApeKeyVerificationCache(10);
    cache.set('h1', entry(), cache.generation);
    cache.set('h2', entry({ keyId: 'k2' }), cache.generation);
    cache.set('h3', entry({ uid: 'u2', keyId: 'k3' }), cache.generation);
    cache.evictUser('u1');
    expect(cache.size).toBe(1);
    expect(cache.get('h3', 0)?.uid).toBe('u2');
  });

  it('refuses an answer from a verification that started before an eviction', () => {
    const cache = new ApeKeyVerificationCache(10);
    const started = cache.generation;
    cache.evictKey('unrelated');
    expect(cache.set('h1', entry(), started)).toBe(false);
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.set('h1', entry(), cache.generation)).toBe(true);
  });

  it('stays within its size bound', () => {
    const cache = new ApeKeyVerificationCache(2);
    for (const hash of ['a', 'b', 'c']) cache.set(hash, entry({ keyId: hash }), cache.generation);
    expect(cache.size).toBe(2);
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
