import type { DeepPartial, ServerConfiguration } from '../../../src/config/server-configuration.schema';
import type { GeneratedApeKey } from '../../../src/modules/ape-keys/ape-keys.types';
import type { TestApp } from '../../support/test-app';

/** Cheap bcrypt in tests, and room for the many deliberate bad authentications of these suites. */
export const TEST_CONFIGURATION: DeepPartial<ServerConfiguration> = {
  apeKeys: { apeKeySaltRounds: 4 },
  rateLimiting: { badAuthentication: { maxAttempts: 100_000 } },
};

export const HIGH_GLOBAL_LIMIT = { rateLimit: { globalPerMinute: 100_000, overrides: {} } };

export async function generateKey(
  t: TestApp,
  auth: string,
  body: { name: string; enabled: boolean } = { name: 'script', enabled: true },
): Promise<GeneratedApeKey> {
  const res = await t.request<{ data: GeneratedApeKey }>('POST', '/ape-keys', { auth, body });
  if (res.status !== 200) throw new Error(`generate failed: ${res.status} ${res.body.message}`);
  return res.body.data;
}
