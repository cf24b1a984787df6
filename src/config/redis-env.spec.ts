import { EnvError, loadEnv } from './env';

describe('loadEnv: Redis credentials and TLS (managed Redis)', () => {
  const base = {
    DATABASE_URL: 'postgres://u:p@db/typing',
    AUTH_PROVIDER: 'oidc',
    OIDC_ISSUER: 'https://issuer',
    OIDC_AUDIENCE: 'aud',
    OIDC_JWKS_URL: 'https://issuer/jwks',
  };
  const url = (REDIS_URL: string, more: Record<string, string> = {}) =>
    loadEnv({ ...base, REDIS_URL, ...more });
  const cluster = (more: Record<string, string> = {}) =>
    loadEnv({ ...base, REDIS_CLUSTER_NODES: 'redis-0:6380,redis-1:6380', ...more });
  const refusal = (load: () => unknown) => {
    try {
      load();
    } catch (e) {
      expect(e).toBeInstanceOf(EnvError);
      return (e as Error).message;
    }
    throw new Error('expected an EnvError');
  };

  it('leaves a plain REDIS_URL as it was: no credentials, no TLS', () => {
    const env = url('redis://cache:6379');
    expect(env).not.toHaveProperty('redisUsername');
    expect(env).not.toHaveProperty('redisPassword');
    expect(env).not.toHaveProperty('redisTls');
  });

  it('reads TLS from rediss:// (system CAs), with a CA file, a server name and a client certificate', () => {
    expect(url('rediss://u:pw@cache:6380').redisTls).toEqual({});
    expect(
      url('rediss://cache:6380', {
        REDIS_PASSWORD: 'pw',
        REDIS_TLS: 'true',
        REDIS_TLS_CA_FILE: '/etc/redis/ca.pem',
        REDIS_TLS_SERVERNAME: 'cache.example',
        REDIS_TLS_CERT_FILE: '/etc/redis/client.pem',
        REDIS_TLS_KEY_FILE: '/etc/redis/client.key',
      }),
    ).toMatchObject({
      redisPassword: 'pw',
      redisTls: {
        caFile: '/etc/redis/ca.pem',
        servername: 'cache.example',
        certFile: '/etc/redis/client.pem',
        keyFile: '/etc/redis/client.key',
      },
    });
  });

  it('gives a Cluster credentials and TLS through REDIS_USERNAME, REDIS_PASSWORD and REDIS_TLS', () => {
    expect(
      cluster({
        REDIS_USERNAME: 'app',
        REDIS_PASSWORD: 's3cret',
        REDIS_TLS: 'true',
        REDIS_TLS_CA_FILE: '/ca.pem',
      }),
    ).toMatchObject({
      redisUsername: 'app',
      redisPassword: 's3cret',
      redisTls: { caFile: '/ca.pem' },
    });
    expect(cluster({ REDIS_PASSWORD: 's3cret' })).not.toHaveProperty('redisTls');
    expect(cluster({ REDIS_TLS: 'false' })).not.toHaveProperty('redisTls');
  });

  it.each([
    [
      'a password in REDIS_URL and in REDIS_PASSWORD',
      () => url('rediss://:a@cache:6380', { REDIS_PASSWORD: 'b' }),
      /Give the Redis credentials once: in REDIS_URL .* or in REDIS_USERNAME and REDIS_PASSWORD, not both/,
    ],
    [
      'a user in REDIS_URL and REDIS_USERNAME',
      () => url('rediss://app:a@cache:6380', { REDIS_USERNAME: 'other', REDIS_PASSWORD: 'b' }),
      /Give the Redis credentials once/,
    ],
    [
      'REDIS_TLS=true with redis://',
      () => url('redis://cache:6379', { REDIS_TLS: 'true' }),
      /REDIS_TLS=true but REDIS_URL is redis:\/\/ \(plain\): write rediss:\/\//,
    ],
    [
      'REDIS_TLS=false with rediss://',
      () => url('rediss://cache:6380', { REDIS_TLS: 'false' }),
      /REDIS_TLS=false but REDIS_URL is rediss:\/\//,
    ],
    [
      'a CA file without TLS (URL)',
      () => url('redis://cache:6379', { REDIS_TLS_CA_FILE: '/ca.pem' }),
      /REDIS_TLS_CA_FILE need TLS: write rediss:\/\/ in REDIS_URL/,
    ],
    [
      'TLS settings without TLS (Cluster)',
      () => cluster({ REDIS_TLS_CA_FILE: '/ca.pem', REDIS_TLS_SERVERNAME: 'x' }),
      /REDIS_TLS_CA_FILE, REDIS_TLS_SERVERNAME need TLS: set REDIS_TLS=true/,
    ],
    [
      'a user without a password',
      () => cluster({ REDIS_USERNAME: 'app' }),
      /REDIS_USERNAME needs REDIS_PASSWORD/,
    ],
    [
      'a client certificate without its key',
      () => cluster({ REDIS_TLS: 'true', REDIS_TLS_CERT_FILE: '/c.pem' }),
      /REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE go together/,
    ],
    [
      'a REDIS_TLS that is no boolean',
      () => cluster({ REDIS_TLS: 'maybe' }),
      /REDIS_TLS must be true or false/,
    ],
    [
      'another scheme',
      () => url('https://u:s3cret@cache:6379'),
      /REDIS_URL must start with redis:\/\/ or rediss:\/\/ \(TLS\) \(got "https:\/\/"\)/,
    ],
  ])('refuses %s, naming the variables', (_case, load, message) => {
    const text = refusal(load);
    expect(text).toMatch(message);
    // The refusal never echoes a password.
    expect(text).not.toMatch(/s3cret|:a@|:b\b/);
  });

  it('never echoes an unparsable REDIS_URL (it may hold a password)', () => {
    expect(refusal(() => url('rediss://:s3cret@[bad'))).toBe(
      'REDIS_URL is not a URL: expected redis://[user:password@]host:port or rediss://...',
    );
  });
});
