import { EnvError, loadEnv } from './env';

// Kept apart from env.spec.ts: the store timeouts of the outage work (see docs/architecture.md "Store outages").
describe('loadEnv: store timeouts', () => {
  const base = { MODE: 'dev', DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://y' };

  it('bounds every wait on a store by default', () => {
    expect(loadEnv(base)).toMatchObject({
      databaseStatementTimeoutMs: 60_000,
      databaseConnectTimeoutMs: 10_000,
      redisCommandTimeoutMs: 2_000,
      redisConnectTimeoutMs: 2_000,
    });
  });

  it('reads the four variables, statement timeout 0 meaning none', () => {
    const env = loadEnv({
      ...base,
      DATABASE_STATEMENT_TIMEOUT_MS: '0',
      DATABASE_CONNECT_TIMEOUT_MS: '1500',
      REDIS_COMMAND_TIMEOUT_MS: '250',
      REDIS_CONNECT_TIMEOUT_MS: '800',
    });
    expect(env).toMatchObject({
      databaseStatementTimeoutMs: 0,
      databaseConnectTimeoutMs: 1500,
      redisCommandTimeoutMs: 250,
      redisConnectTimeoutMs: 800,
    });
  });

  it('refuses a connect or command timeout of 0 (it would never time out in the client)', () => {
    expect(() => loadEnv({ ...base, DATABASE_CONNECT_TIMEOUT_MS: '0' })).toThrow(EnvError);
    expect(() => loadEnv({ ...base, REDIS_COMMAND_TIMEOUT_MS: '0' })).toThrow(EnvError);
    expect(() => loadEnv({ ...base, REDIS_CONNECT_TIMEOUT_MS: 'soon' })).toThrow(EnvError);
  });
});
