import { describeRedisTarget, describeTarget } from './target';

describe('describeTarget', () => {
  it.each([
    ['postgres://typing:s3cret@db.internal:5432/typing', 'postgres://db.internal:5432/typing'],
    ['redis://:pw@cache:6379/2', 'redis://cache:6379/2'],
    ['redis://cache:6379', 'redis://cache:6379'],
    ['rediss://app:s3cret@cache.example:6380', 'rediss://cache.example:6380'],
    ['rediss://:pw@cache.example:6380/0', 'rediss://cache.example:6380/0'],
    ['https://issuer.example/.well-known/jwks.json', 'https://issuer.example/.well-known/jwks.json'],
  ])('%s -> %s', (url, expected) => {
    expect(describeTarget(url)).toBe(expected);
    expect(describeTarget(url)).not.toMatch(/s3cret|pw@/);
  });

  it('never echoes what it cannot parse', () => {
    expect(describeTarget('not a url with password hunter2')).toBe('(unparsable URL)');
  });
});

describe('describeRedisTarget', () => {
  it('names the server without its password, or the Cluster and whether it is reached over TLS', () => {
    const nodes = [
      { host: 'redis-0', port: 6380 },
      { host: 'redis-1', port: 6380 },
    ];
    expect(describeRedisTarget({ redisUrl: 'rediss://u:s3cret@cache:6380', redisClusterNodes: [] })).toBe(
      'rediss://cache:6380',
    );
    expect(describeRedisTarget({ redisUrl: '', redisClusterNodes: nodes })).toBe(
      'Redis Cluster redis-0:6380,redis-1:6380',
    );
    expect(describeRedisTarget({ redisUrl: '', redisClusterNodes: nodes, redisTls: {} })).toBe(
      'Redis Cluster redis-0:6380,redis-1:6380 over TLS',
    );
  });
});
