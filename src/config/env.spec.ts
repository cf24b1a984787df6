import { EnvError, loadEnv } from './env';

describe('loadEnv', () => {
  const production = {
    DATABASE_URL: 'postgres://u:p@db/typing',
    REDIS_URL: 'redis://cache:6379',
    AUTH_PROVIDER: 'oidc',
    OIDC_ISSUER: 'https://issuer',
    OIDC_AUDIENCE: 'aud',
    OIDC_JWKS_URL: 'https://issuer/jwks',
  };

  it('reads a complete production environment with defaults', () => {
    const env = loadEnv(production);
    expect(env).toMatchObject({
      mode: 'production',
      port: 5005,
      host: '127.0.0.1',
      authProvider: 'oidc',
      bodyLimitBytes: 102400,
      trustProxy: false,
      corsOrigins: '*',
      rateLimit: { globalPerMinute: 120, overrides: {} },
      jobsEnabled: true,
      metrics: { port: undefined, host: '127.0.0.1', token: undefined },
      docsEnabled: true,
    });
  });

  it('names everything that is missing in production, at once', () => {
    expect(() => loadEnv({})).toThrow(EnvError);
    try {
      loadEnv({});
    } catch (e) {
      expect((e as Error).message).toContain('DATABASE_URL');
      expect((e as Error).message).toContain('REDIS_URL');
      expect((e as Error).message).toContain('AUTH_PROVIDER');
    }
    expect(() => loadEnv({ ...production, AUTH_PROVIDER: 'firebase' })).toThrow(/FIREBASE_PROJECT_ID/);
    expect(() => loadEnv({ ...production, OIDC_JWKS_URL: '' })).toThrow(/OIDC_JWKS_URL/);
  });

  it('refuses the "none" provider and bad values in production', () => {
    expect(() => loadEnv({ ...production, AUTH_PROVIDER: 'none' })).toThrow(/AUTH_PROVIDER must be/);
    expect(() => loadEnv({ ...production, MODE: 'staging' })).toThrow(/MODE must be/);
    expect(() => loadEnv({ ...production, PORT: 'eighty' })).toThrow(/PORT must be an integer/);
    expect(() => loadEnv({ ...production, TRUST_PROXY: 'maybe' })).toThrow(/TRUST_PROXY/);
    expect(() => loadEnv({ ...production, RATE_LIMIT_OVERRIDES: '[1]' })).toThrow(/RATE_LIMIT_OVERRIDES/);
  });

  describe('Redis: one server or a Cluster', () => {
    const { REDIS_URL: _url, ...withoutRedis } = production;
    void _url;

    it('reads REDIS_CLUSTER_NODES instead of REDIS_URL', () => {
      const env = loadEnv({ ...withoutRedis, REDIS_CLUSTER_NODES: 'redis-0:7000, 10.0.0.2:7001,[::1]:7002' });
      expect(env.redisUrl).toBe('');
      expect(env.redisClusterNodes).toEqual([
        { host: 'redis-0', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ]);
      expect(loadEnv(production).redisClusterNodes).toEqual([]);
    });

    it('refuses both at once, and names either when neither is set', () => {
      expect(() => loadEnv({ ...production, REDIS_CLUSTER_NODES: 'redis-0:7000' })).toThrow(
        'Set either REDIS_URL (one server) or REDIS_CLUSTER_NODES (a Redis Cluster), not both',
      );
      expect(() => loadEnv(withoutRedis)).toThrow(/REDIS_URL \(redis:\/\/host:6379\) or REDIS_CLUSTER_NODES/);
    });

    it.each(['redis-0', 'redis-0:', 'redis-0:7000,', 'redis://redis-0:7000', 'redis-0:70000', 'a b:1'])(
      'refuses the node list %p',
      (nodes) => {
        expect(() => loadEnv({ ...withoutRedis, REDIS_CLUSTER_NODES: nodes })).toThrow(
          /REDIS_CLUSTER_NODES must be/,
        );
      },
    );

    it('takes a key prefix without braces', () => {
      expect(loadEnv(production).redisKeyPrefix).toBe('');
      expect(loadEnv({ ...production, REDIS_KEY_PREFIX: 'staging:' }).redisKeyPrefix).toBe('staging:');
      expect(() => loadEnv({ ...production, REDIS_KEY_PREFIX: '{staging}:' })).toThrow(/REDIS_KEY_PREFIX/);
    });
  });

  it('allows dev mode without an identity provider', () => {
    const env = loadEnv({ MODE: 'dev', DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://y' });
    expect(env.mode).toBe('dev');
    expect(env.authProvider).toBe('none');
  });

  it('parses lists, hop counts and overrides', () => {
    const env = loadEnv({
      ...production,
      CORS_ORIGINS: 'https://a.example, https://b.example',
      TRUST_PROXY: '2',
      RATE_LIMIT_OVERRIDES: '{"resultsAdd":{"max":1000}}',
      JOBS_ENABLED: 'false',
    });
    expect(env.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(env.trustProxy).toBe(2);
    expect(env.rateLimit.overrides).toEqual({ resultsAdd: { max: 1000 } });
    expect(env.jobsEnabled).toBe(false);
  });

  it('reads the exposure settings: metrics port and token, docs switch', () => {
    const env = loadEnv({
      ...production,
      HOST: '0.0.0.0',
      METRICS_PORT: '9464',
      METRICS_TOKEN: 't'.repeat(32),
      DOCS_ENABLED: 'false',
    });
    expect(env.metrics).toEqual({ port: 9464, host: '0.0.0.0', token: 't'.repeat(32) });
    expect(env.docsEnabled).toBe(false);
    expect(loadEnv({ ...production, METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).metrics.host).toBe(
      '10.0.0.5',
    );
  });

  it('reads TRIBE_PORT: a port of its own for the Tribe socket server, none by default', () => {
    expect(loadEnv(production).tribe).toEqual({ port: undefined });
    expect(loadEnv({ ...production, TRIBE_PORT: '3005' }).tribe.port).toBe(3005);
    for (const bad of ['0', '65536', '3005.5', 'abc', '-1'])
      expect(() => loadEnv({ ...production, TRIBE_PORT: bad })).toThrow(
        `TRIBE_PORT must be an integer from 1 to 65535 (got "${bad}")`,
      );
    expect(() => loadEnv({ ...production, PORT: '3005', TRIBE_PORT: '3005' })).toThrow(
      'TRIBE_PORT must differ from PORT (both are 3005)',
    );
    expect(() => loadEnv({ ...production, METRICS_PORT: '9464', TRIBE_PORT: '9464' })).toThrow(
      'TRIBE_PORT must differ from METRICS_PORT (both are 9464)',
    );
    // Room timings are a test and benchmark seam, never read from the environment.
    expect(loadEnv({ ...production, TRIBE_TIMINGS: '{"initMs":1}' }).tribe.timings).toBeUndefined();
    expect(loadEnv(production, { tribe: { timings: { initMs: 1 } } }).tribe.timings).toEqual({ initMs: 1 });
  });

  it('refuses a short metrics token and malformed CORS origins', () => {
    expect(() => loadEnv({ ...production, METRICS_TOKEN: 'short' })).toThrow(
      /METRICS_TOKEN must be at least 16/,
    );
    expect(() => loadEnv({ ...production, METRICS_PORT: '-1' })).toThrow(/METRICS_PORT/);
    expect(() => loadEnv({ ...production, DOCS_ENABLED: 'sometimes' })).toThrow(/DOCS_ENABLED/);
    for (const bad of ['a.example', 'https://a.example/path', 'https://a.example,']) {
      expect(() => loadEnv({ ...production, CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS/);
    }
    expect(loadEnv({ ...production, CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadEnv({ ...production, CORS_ORIGINS: 'http://localhost:3000' }).corsOrigins).toEqual([
      'http://localhost:3000',
    ]);
  });
});
