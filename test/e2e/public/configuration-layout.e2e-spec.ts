import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';

/**
 * Every key of the original platform's configuration (contract facts §5) that its client reads.
 */
const ORIGINAL_KEYS = [
  'maintenance',
  'dev.responseSlowdownMs',
  'results.savingEnabled',
  'results.objectHashCheckEnabled',
  'results.limits.regularUser',
  'results.limits.premiumUser',
  'results.maxBatchSize',
  'results.filterPresets.enabled',
  'results.filterPresets.maxPresetsPerUser',
  'quotes.reporting.enabled',
  'quotes.reporting.maxReports',
  'quotes.reporting.contentReportLimit',
  'quotes.submissionsEnabled',
  'quotes.maxFavorites',
  'admin.endpointsEnabled',
  'apeKeys.endpointsEnabled',
  'apeKeys.acceptKeys',
  'apeKeys.maxKeysPerUser',
  'apeKeys.apeKeyBytes',
  'apeKeys.apeKeySaltRounds',
  'users.signUp',
  'users.lastHashesCheck.enabled',
  'users.lastHashesCheck.maxHashes',
  'users.discordIntegration.enabled',
  'users.autoBan.enabled',
  'users.autoBan.maxCount',
  'users.autoBan.maxHours',
  'users.profiles.enabled',
  'users.xp.enabled',
  'users.xp.funboxBonus',
  'users.xp.gainMultiplier',
  'users.xp.maxDailyBonus',
  'users.xp.minDailyBonus',
  'users.xp.streak.enabled',
  'users.xp.streak.maxStreakDays',
  'users.xp.streak.maxStreakMultiplier',
  'users.inbox.enabled',
  'users.inbox.maxMail',
  'users.premium.enabled',
  'rateLimiting.badAuthentication.enabled',
  'rateLimiting.badAuthentication.penalty',
  'rateLimiting.badAuthentication.flaggedStatusCodes',
  'dailyLeaderboards.enabled',
  'dailyLeaderboards.maxResults',
  'dailyLeaderboards.leaderboardExpirationTimeInDays',
  'dailyLeaderboards.validModeRules',
  'dailyLeaderboards.scheduleRewardsModeRules',
  'dailyLeaderboards.topResultsToAnnounce',
  'dailyLeaderboards.xpRewardBrackets',
  'leaderboards.minTimeTyping',
  'leaderboards.weeklyXp.enabled',
  'leaderboards.weeklyXp.expirationTimeInDays',
  'leaderboards.weeklyXp.xpRewardBrackets',
  'connections.enabled',
  'connections.maxPerUser',
];

function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], value);
}

describe('GET /configuration carries the original layout', () => {
  let t: TestApp;

  beforeAll(async () => {
    // adminLimit (1 per 5 s) is tested in rate-limit.e2e-spec.ts; here one admin patches several times.
    t = await createTestApp({
      env: { rateLimit: { globalPerMinute: 10_000, overrides: { adminLimit: { max: 10_000 } } } },
    });
  });
  afterAll(() => t.close());

  const get = async () => (await t.request('GET', '/configuration')).body.data;

  it.each(ORIGINAL_KEYS)('has %s', async (path) => {
    expect(at(await get(), path)).toBeDefined();
  });

  it('defaults the added keys', async () => {
    const config = await get();
    expect(at(config, 'dev')).toEqual({ responseSlowdownMs: 0 });
    expect(at(config, 'rateLimiting.badAuthentication')).toMatchObject({
      penalty: 1,
      flaggedStatusCodes: [401, 404, 470, 471],
    });
  });

  it('lets an admin change them, within bounds', async () => {
    const admin = await createUser(t.db, { permissions: ['admin'] });
    const auth = await t.bearer(admin.uid);
    const ok = await t.request('PATCH', '/configuration', {
      auth,
      body: {
        configuration: {
          dev: { responseSlowdownMs: 250 },
          rateLimiting: { badAuthentication: { penalty: 2.5, flaggedStatusCodes: [401, 403] } },
        },
      },
    });
    expect(ok.status).toBe(200);
    const config = await get();
    expect(at(config, 'dev.responseSlowdownMs')).toBe(250);
    expect(at(config, 'rateLimiting.badAuthentication')).toMatchObject({
      penalty: 2.5,
      flaggedStatusCodes: [401, 403],
    });

    const refused = await t.request('PATCH', '/configuration', {
      auth,
      body: {
        configuration: {
          dev: { responseSlowdownMs: -1 },
          rateLimiting: { badAuthentication: { flaggedStatusCodes: [99] } },
        },
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.validationErrors).toEqual(
      expect.arrayContaining([
        expect.stringContaining('"configuration.dev.responseSlowdownMs"'),
        expect.stringContaining('"configuration.rateLimiting.badAuthentication.flaggedStatusCodes.0"'),
      ]),
    );
  });
});
