import { RATE_LIMIT_CLASSES } from '../../../src/common/rate-limit/rate-limit-classes';
import type { AppEnv } from '../../../src/config/env';
import type { DeepPartial, ServerConfiguration } from '../../../src/config/server-configuration.schema';
import type { TestApp, TestResponse } from '../../support/test-app';

/** No rate limit or bad-authentication ban gets in the way of many hostile requests from one address. */
export const UNLIMITED_ENV: Partial<AppEnv> = {
  rateLimit: {
    globalPerMinute: 10_000_000,
    overrides: Object.fromEntries(Object.keys(RATE_LIMIT_CLASSES).map((id) => [id, { max: 10_000_000 }])),
  },
};

export const UNLIMITED_CONFIGURATION: DeepPartial<ServerConfiguration> = {
  rateLimiting: { badAuthentication: { maxAttempts: 10_000_000 } },
  apeKeys: { apeKeySaltRounds: 4 },
};

/** Row counts of every table a request could write to, plus the user's own row, as one comparable value. */
export async function stateDigest(t: TestApp, uid: string): Promise<string> {
  const tables = [
    'ape_keys',
    'connections',
    'custom_themes',
    'inbox_mail',
    'new_quotes',
    'personal_bests',
    'presets',
    'quote_reports',
    'release_jobs',
    'results',
    'tag_personal_bests',
    'tags',
    'test_activity',
    'user_configs',
    'users',
  ] as const;
  const counts = await Promise.all(
    tables.map(async (table) => {
      const row = await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return `${table}=${row.n}`;
    }),
  );
  const user = await t.db.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirst();
  const configuration = await t.db.selectFrom('server_configuration').selectAll().execute();
  return JSON.stringify({ counts, user, configuration });
}

/** The error envelope: a string message, `data: null`, nothing else but the optional validation list or error id. */
export function expectEnvelope(res: TestResponse, status: number, message?: string): void {
  expect({ status: res.status, isObject: typeof res.body === 'object' && res.body !== null }).toEqual({
    status,
    isObject: true,
  });
  expect(typeof res.body.message).toBe('string');
  if (message !== undefined) expect(res.body.message).toBe(message);
  expect(res.body.data).toBeNull();
  expect(
    Object.keys(res.body).filter((k) => !['message', 'data', 'validationErrors', 'errorId'].includes(k)),
  ).toEqual([]);
}
