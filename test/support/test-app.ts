import { installSerialisationAudit } from './serialisation-audit';
import { Module, type OnApplicationShutdown, type Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { DestinationStream } from 'pino';
import { createApp } from '../../src/app.factory';
import { ManualClock } from '../../src/common/clock';
import { loadEnv, type AppEnv } from '../../src/config/env';
import type { DeepPartial, ServerConfiguration } from '../../src/config/server-configuration.schema';
import { ServerConfigurationService } from '../../src/common/server-configuration/server-configuration.service';
import { DATABASE, type Database } from '../../src/infra/database/database';
import { REDIS, type Redis } from '../../src/infra/redis/redis';
import { openedByTest } from './file-resources';
import { signIdToken, testJwks, TEST_AUDIENCE, TEST_ISSUER, type TokenOptions } from './jwks';
import { createTestStores, type TestStores } from './stores';

export interface RequestOptions {
  /** Full Authorization header value. */
  auth?: string;
  body?: unknown;
  /** Raw body string (sent as-is with the JSON content type unless headers say otherwise). */
  rawBody?: string;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  ip?: string;
}

export interface TestResponse<T = unknown> {
  status: number;
  body: T & { message: string; data: unknown; validationErrors?: string[] };
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface TestApp {
  app: NestFastifyApplication;
  env: AppEnv;
  clock: ManualClock;
  db: Database;
  redis: Redis;
  stores: TestStores;
  configuration: ServerConfigurationService;
  request<T = unknown>(method: string, url: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** `Bearer <token>` for `uid`, issued now by the test issuer (fresh). */
  bearer(uid: string, options?: TokenOptions): Promise<string>;
  /** Merges a deep partial into the server configuration, as an admin would. */
  configure(partial: DeepPartial<ServerConfiguration>): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  mode?: 'dev' | 'production';
  /** Share stores with another app (two replicas); new ones by default. */
  stores?: TestStores;
  env?: Partial<AppEnv>;
  /** Start time of the manual clock (ms). Defaults to the real now. */
  now?: number;
  configuration?: DeepPartial<ServerConfiguration>;
  /** Extra modules (e.g. probe routes) mounted next to the real ones. */
  extraModules?: Type[];
  /** Capture log lines (pair with `env: { logLevel: 'info' }`). */
  logDestination?: DestinationStream;
}

/**
 * A module that tells when its application closes, whoever closes it (`t.close()`, or a test that hands `t.app` to
 * the shutdown code): the test environment fails a file that leaves an app open (test/support/environment.ts).
 */
function closeWatcher(): { module: Type; onClose: () => void } {
  const watcher = { module: Object as Type, onClose: () => {} };
  @Module({})
  class TestAppCloseWatcher implements OnApplicationShutdown {
    onApplicationShutdown(): void {
      watcher.onClose();
    }
  }
  watcher.module = TestAppCloseWatcher;
  return watcher;
}

/**
 * The whole application on real PostgreSQL and Redis, with a manual clock and a local OIDC issuer, served through
 * Fastify's in-process injection (no port).
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const stores = options.stores ?? (await createTestStores());
  const jwks = await testJwks();
  const clock = new ManualClock(options.now ?? Date.now());
  const env: AppEnv = {
    ...loadEnv(
      {},
      {
        mode: options.mode ?? 'production',
        databaseUrl: stores.databaseUrl,
        redisUrl: stores.redisUrl,
        redisClusterNodes: stores.redisClusterNodes,
        redisKeyPrefix: stores.redisKeyPrefix,
        authProvider: 'oidc',
        oidc: { issuer: TEST_ISSUER, audience: TEST_AUDIENCE, jwksUrl: jwks.url },
        logLevel: process.env.TEST_LOG_LEVEL ?? 'silent',
        databasePoolMax: 5,
        jobsEnabled: false,
      },
    ),
    ...options.env,
  };
  const watcher = closeWatcher();
  const app = await createApp({
    env,
    clock,
    extraModules: [...(options.extraModules ?? []), watcher.module],
    logDestination: options.logDestination,
    configureFastify: installSerialisationAudit,
  });
  const closed = openedByTest('test app (createTestApp)', () => app.close());
  watcher.onClose = closed;
  const configuration = app.get(ServerConfigurationService);
  if (options.configuration) await configuration.patch(options.configuration);

  const testApp: TestApp = {
    app,
    env,
    clock,
    db: app.get<Database>(DATABASE),
    redis: app.get<Redis>(REDIS),
    stores,
    configuration,
    async request<T>(method: string, url: string, opts: RequestOptions = {}): Promise<TestResponse<T>> {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.auth !== undefined) headers.authorization = opts.auth;
      let payload: string | undefined;
      if (opts.rawBody !== undefined) payload = opts.rawBody;
      else if (opts.body !== undefined) payload = JSON.stringify(opts.body);
      if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
        headers['content-type'] = 'application/json';
      }
      const query = opts.query
        ? Object.fromEntries(Object.entries(opts.query).map(([k, v]) => [k, String(v)]))
        : undefined;
      const response = await app.inject({
        method: method as 'GET',
        url,
        query,
        headers,
        payload,
        remoteAddress: opts.ip ?? '127.0.0.1',
      });
      let body: unknown;
      try {
        body = response.json();
      } catch {
        body = undefined;
      }
      return {
        status: response.statusCode,
        body: body as TestResponse<T>['body'],
        headers: response.headers,
        text: response.body,
      };
    },
    async bearer(uid: string, tokenOptions?: TokenOptions): Promise<string> {
      return `Bearer ${await signIdToken(uid, clock.now(), tokenOptions)}`;
    },
    async configure(partial) {
      await configuration.patch(partial);
    },
    async close() {
      await app.close();
    },
  };
  return testApp;
}
