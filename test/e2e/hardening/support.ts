import { sql } from 'kysely';
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

/** Every table a request could write to (the refusal property: none of them changes). */
const WRITABLE_TABLES = [
  'ape_keys',
  'connections',
  'custom_themes',
  'inbox_mail',
  'leaderboard_best_changes',
  'new_quotes',
  'personal_bests',
  'presets',
  'psas',
  'quote_ratings',
  'quote_reports',
  'release_jobs',
  'result_filter_presets',
  'results',
  'tag_personal_bests',
  'tags',
  'test_activity',
  'user_configs',
  'user_permissions',
  'user_quote_ratings',
  'users',
  'server_configuration',
] as const;

/** Every writable table's row count, the user's row and the server configuration, in one round trip. */
export async function stateDigest(t: TestApp, uid: string): Promise<string> {
  const counts = sql.join(WRITABLE_TABLES.map((table) => sql`(SELECT count(*) FROM ${sql.table(table)})`));
  const { rows } = await sql<{ d: unknown }>`
    SELECT json_build_array(${counts},
      (SELECT row_to_json(u) FROM users u WHERE uid = ${uid}),
      (SELECT json_agg(c) FROM server_configuration c)) AS d`.execute(t.db);
  return JSON.stringify(rows[0]?.d);
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
