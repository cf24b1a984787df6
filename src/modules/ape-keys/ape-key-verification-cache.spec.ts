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
    expect(cache.set('h1', entry(), cache.begin())).toBe(true);
    expect(cache.get('h1', 999)?.uid).toBe('u1');
    expect(cache.get('h1', 1_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts every entry of a key, and only those', () => {
    const cache = new ApeKeyVerificationCache(10);
    cache.set('h1', entry(), cache.begin());
    cache.set('h1-padded', entry(), cache.begin());
    cache.set('h2', entry({ keyId: 'k2' }), cache.begin());
    cache.evictKey('k1');
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.get('h1-padded', 0)).toBeUndefined();
    expect(cache.get('h2', 0)?.keyId).toBe('k2');
  });

  it('evicts every entry of a user, and only those', () => {
    const cache = new ApeKeyVerificationCache(10);
    cache.set('h1', entry(), cache.begin());
    cache.set('h2', entry({ keyId: 'k2' }), cache.begin());
    cache.set('h3', entry({ uid: 'u2', keyId: 'k3' }), cache.begin());
    cache.evictUser('u1');
    expect(cache.size).toBe(1);
    expect(cache.get('h3', 0)?.uid).toBe('u2');
  });

  it.each([
    ['its key', (cache: ApeKeyVerificationCache) => cache.evictKey('k1')],
    ['its user', (cache: ApeKeyVerificationCache) => cache.evictUser('u1')],
  ])('refuses an answer from a verification under way when %s was evicted', (_label, evict) => {
    const cache = new ApeKeyVerificationCache(10);
    const started = cache.begin();
    evict(cache);
    expect(cache.set('h1', entry(), started)).toBe(false);
    expect(cache.get('h1', 0)).toBeUndefined();
    expect(cache.set('h1', entry(), cache.begin())).toBe(true);
  });

  it('keeps answers of verifications whose key and user were not evicted meanwhile', () => {
    const cache = new ApeKeyVerificationCache(10);
    cache.evictKey('k1');
    const started = cache.begin();
    cache.evictKey('other-key');
    cache.evictUser('other-user');
    expect(cache.set('h1', entry(), started)).toBe(true);
  });

  it('stays within its size bound', () => {
    const cache = new ApeKeyVerificationCache(2);
    for (const hash of ['a', 'b', 'c']) cache.set(hash, entry({ keyId: hash }), cache.begin());
    expect(cache.size).toBe(2);
    expect(cache.get('a', 0)).toBeUndefined();
  });
});
