import { ANTI_CHEAT_SCHEMA, type AntiCheatConfiguration } from './anti-cheat-configuration';
import { defaultsOf, s } from './config-schema';
import type { Int } from '../common/int';

const modeRule = s.obj({ language: s.str('', 100), mode: s.str('', 100), mode2: s.str('', 100) });
const rewardBracket = s.obj({
  minRank: s.int(1, 1),
  maxRank: s.int(1, 1),
  minReward: s.int(0, 0),
  maxReward: s.int(0, 0),
});

export const TRIBE_MODES = ['disabled', 'enabled', 'enabled_stealth'] as const;
export type TribeMode = (typeof TRIBE_MODES)[number];

/**
 * The server configuration document (DECISIONS.md "Server configuration"): the original platform's key layout, our
 * defaults. Features the spec implies are on are on; XP and premium are off until an operator turns them on.
 */
export const SERVER_CONFIGURATION_SCHEMA = s.obj({
  maintenance: s.bool(false),
  // The original's dev-only artificial response delay; kept for its clients' configuration pages.
  dev: s.obj({ responseSlowdownMs: s.int(0, 0, 60_000) }),
  results: s.obj({
    savingEnabled: s.bool(true),
    objectHashCheckEnabled: s.bool(true),
    limits: s.obj({ regularUser: s.int(1000, 0), premiumUser: s.int(10000, 0) }),
    maxBatchSize: s.int(1000, 1),
    botCheck: s.obj({ minWpm: s.num(130, 0), maxTestDuration: s.num(122, 0) }),
    antiCheat: ANTI_CHEAT_SCHEMA,
    // The spec does not name result filter presets: the original's defaults (contract facts §5), off.
    // On by default (unlike the original's false/0) so its client's filter presets work out of the box (DECISIONS: switches on).
    filterPresets: s.obj({ enabled: s.bool(true), maxPresetsPerUser: s.int(10, 0) }),
  }),
  quotes: s.obj({
    reporting: s.obj({ enabled: s.bool(true), maxReports: s.int(1000, 0), contentReportLimit: s.int(20, 0) }),
    submissionsEnabled: s.bool(true),
    maxFavorites: s.int(100, 0),
    maxQueuedPerLanguage: s.int(100, 0),
  }),
  presets: s.obj({ maxPerUser: s.int(10, 0) }),
  admin: s.obj({ endpointsEnabled: s.bool(true) }),
  apeKeys: s.obj({
    endpointsEnabled: s.bool(true),
    acceptKeys: s.bool(true),
    maxKeysPerUser: s.int(5, 0),
    apeKeyBytes: s.int(24, 24, 256),
    apeKeySaltRounds: s.int(10, 4, 15),
  }),
  users: s.obj({
    signUp: s.bool(true),
    lastHashesCheck: s.obj({ enabled: s.bool(true), maxHashes: s.int(10, 0, 100) }),
    discordIntegration: s.obj({ enabled: s.bool(true) }),
    autoBan: s.obj({ enabled: s.bool(false), maxCount: s.int(5, 1), maxHours: s.int(1, 1) }),
    profiles: s.obj({ enabled: s.bool(true) }),
    xp: s.obj({
      enabled: s.bool(false),
      funboxBonus: s.num(0),
      gainMultiplier: s.num(0),
      maxDailyBonus: s.num(0),
      minDailyBonus: s.num(0),
      streak: s.obj({ enabled: s.bool(false), maxStreakDays: s.num(0, 0), maxStreakMultiplier: s.num(0) }),
    }),
    inbox: s.obj({ enabled: s.bool(true), maxMail: s.int(50, 0, 1000) }),
    premium: s.obj({ enabled: s.bool(false) }),
  }),
  rateLimiting: s.obj({
    badAuthentication: s.obj({
      enabled: s.bool(true),
      maxAttempts: s.int(30, 1),
      windowSeconds: s.int(3600, 1),
      // The original's keys: points per flagged response, and the statuses that count (those of our auth step).
      penalty: s.num(1, 0),
      flaggedStatusCodes: s.arr(s.int(0, 100, 599), [401, 404, 470, 471], 100),
    }),
  }),
  dailyLeaderboards: s.obj({
    enabled: s.bool(true),
    maxResults: s.int(250, 0),
    leaderboardExpirationTimeInDays: s.num(2, 0),
    validModeRules: s.arr(modeRule, [
      { language: 'english', mode: 'time', mode2: '15' },
      { language: 'english', mode: 'time', mode2: '60' },
    ]),
    scheduleRewardsModeRules: s.arr(modeRule, []),
    topResultsToAnnounce: s.int(1, 1),
    xpRewardBrackets: s.arr(rewardBracket, []),
  }),
  leaderboards: s.obj({
    minTimeTyping: s.num(7200, 0),
    rebuildIntervalSeconds: s.int(300, 10),
    weeklyXp: s.obj({
      enabled: s.bool(true),
      expirationTimeInDays: s.num(15, 0),
      xpRewardBrackets: s.arr(rewardBracket, []),
    }),
  }),
  connections: s.obj({ enabled: s.bool(true), maxPerUser: s.int(100, 0) }),
  // Multiplayer races (the original's `tribe.mode`, off there by default too): `enabled` shows Tribe in the client's
  // navigation, `enabled_stealth` serves it without the link, `disabled` hides its pages and refuses connections.
  tribe: s.obj({ mode: s.oneOf(TRIBE_MODES, 'disabled') }),
});

export interface ModeRule {
  language: string;
  mode: string;
  mode2: string;
}
export interface RewardBracket {
  minRank: Int;
  maxRank: Int;
  minReward: Int;
  maxReward: Int;
}

export interface ServerConfiguration {
  maintenance: boolean;
  dev: { responseSlowdownMs: Int };
  results: {
    savingEnabled: boolean;
    objectHashCheckEnabled: boolean;
    limits: { regularUser: Int; premiumUser: Int };
    maxBatchSize: Int;
    botCheck: { minWpm: number; maxTestDuration: number };
    antiCheat: AntiCheatConfiguration;
    filterPresets: { enabled: boolean; maxPresetsPerUser: Int };
  };
  quotes: {
    reporting: { enabled: boolean; maxReports: Int; contentReportLimit: Int };
    submissionsEnabled: boolean;
    maxFavorites: Int;
    /** Pending submissions per language; more are refused with 409. */
    maxQueuedPerLanguage: Int;
  };
  presets: { maxPerUser: Int };
  admin: { endpointsEnabled: boolean };
  apeKeys: {
    endpointsEnabled: boolean;
    acceptKeys: boolean;
    maxKeysPerUser: Int;
    apeKeyBytes: Int;
    apeKeySaltRounds: Int;
  };
  users: {
    signUp: boolean;
    lastHashesCheck: { enabled: boolean; maxHashes: Int };
    discordIntegration: { enabled: boolean };
    autoBan: { enabled: boolean; maxCount: Int; maxHours: Int };
    profiles: { enabled: boolean };
    xp: {
      enabled: boolean;
      funboxBonus: number;
      gainMultiplier: number;
      maxDailyBonus: number;
      minDailyBonus: number;
      streak: { enabled: boolean; maxStreakDays: number; maxStreakMultiplier: number };
    };
    inbox: { enabled: boolean; maxMail: Int };
    premium: { enabled: boolean };
  };
  rateLimiting: {
    badAuthentication: {
      enabled: boolean;
      maxAttempts: Int;
      windowSeconds: Int;
      penalty: number;
      flaggedStatusCodes: Int[];
    };
  };
  dailyLeaderboards: {
    enabled: boolean;
    maxResults: Int;
    leaderboardExpirationTimeInDays: number;
    validModeRules: ModeRule[];
    scheduleRewardsModeRules: ModeRule[];
    topResultsToAnnounce: Int;
    xpRewardBrackets: RewardBracket[];
  };
  leaderboards: {
    minTimeTyping: number;
    /** How often the all-time snapshot is rebuilt (DECISIONS.md: every 5 minutes by default). */
    rebuildIntervalSeconds: Int;
    weeklyXp: { enabled: boolean; expirationTimeInDays: number; xpRewardBrackets: RewardBracket[] };
  };
  connections: { enabled: boolean; maxPerUser: Int };
  tribe: { mode: TribeMode };
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends unknown[] ? T[K] : DeepPartial<T[K]> };

export function defaultServerConfiguration(): ServerConfiguration {
  return defaultsOf(SERVER_CONFIGURATION_SCHEMA) as ServerConfiguration;
}

/** Reads a boolean at a dotted path such as `results.savingEnabled`; anything that is not `true` counts as off. */
export function configFlag(config: ServerConfiguration, path: string): boolean {
  let node: unknown = config;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return false;
    node = (node as Record<string, unknown>)[part];
  }
  return node === true;
}
