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
 * The server configuration document (docs/decisions/0013-server-configuration.md): the original platform's key
 * layout, our defaults. Features the spec implies are on are on; XP and premium are off until an operator turns them
 * on. The comments beside the fields are the descriptions of docs/configuration.md (`npm run docs:configuration`).
 */
export const SERVER_CONFIGURATION_SCHEMA = s.obj({
  // Every route but the probes, `/metrics` and `GET /` answers 503 while it is on.
  maintenance: s.bool(false),
  // The original's dev-only artificial response delay; kept for its clients' configuration pages.
  dev: s.obj({
    // With MODE=dev, every request waits this long before it is handled (client loading states); ignored otherwise.
    responseSlowdownMs: s.int(0, 0, 60_000),
  }),
  results: s.obj({
    // Off: `POST /results` answers 503.
    savingEnabled: s.bool(true),
    // The result's `hash` must be the object-hash of the result the client sent (461 otherwise).
    objectHashCheckEnabled: s.bool(true),
    // How many of their newest results `GET /results` lets a user page through (premium needs users.premium.enabled).
    limits: s.obj({ regularUser: s.int(1000, 0), premiumUser: s.int(10000, 0) }),
    // Results answered by `GET /results` when the request gives no `limit` (at most the user's limit).
    maxBatchSize: s.int(1000, 1),
    // The gate of the key-timing checks: timed tests faster than minWpm and shorter than maxTestDuration seconds, of
    // users not opted out of the boards, must send their key timings (464) and pass the bot checks (465).
    botCheck: s.obj({ minWpm: s.num(130, 0), maxTestDuration: s.num(122, 0) }),
    // The open anti-cheat of `POST /results` (docs/decisions/0016-open-anti-cheat.md, docs/security.md).
    antiCheat: ANTI_CHEAT_SCHEMA,
    // Results the anti-cheat refuses (463/464/465) are kept this many days, at most this many per account and in all
    // (the oldest go first), to be listed, replayed against changed thresholds and reinstated (CLI `results refused`).
    quarantine: s.obj({
      enabled: s.bool(true),
      retentionDays: s.int(30, 1, 3650),
      maxPerUser: s.int(50, 1, 10_000),
      maxTotal: s.int(20_000, 1, 10_000_000),
    }),
    // Saved result filters of the original client. The spec does not name them; on by default, unlike the original's
    // false/0, so that its client's filter presets work out of the box (docs/decisions/0040-switches-on-by-default.md).
    filterPresets: s.obj({ enabled: s.bool(true), maxPresetsPerUser: s.int(10, 0) }),
  }),
  quotes: s.obj({
    reporting: s.obj({
      // Off: `POST /quotes/report` and `POST /users/report` answer 503.
      enabled: s.bool(true),
      // Open reports in all; past it new reports are refused until moderators catch up.
      maxReports: s.int(1000, 0),
      // Open reports about one quote or user; past it that content takes no more.
      contentReportLimit: s.int(20, 0),
    }),
    // Off: `POST /quotes` (new quote submissions) answers 503.
    submissionsEnabled: s.bool(true),
    // Favourite quotes per user.
    maxFavorites: s.int(100, 0),
    maxQueuedPerLanguage: s.int(100, 0),
  }),
  // Saved presets per user (409 beyond).
  presets: s.obj({ maxPerUser: s.int(10, 0) }),
  // Off: every `/admin` route answers 503, to everyone.
  admin: s.obj({ endpointsEnabled: s.bool(true) }),
  apeKeys: s.obj({
    // Off: the `/ape-keys` management routes answer 503.
    endpointsEnabled: s.bool(true),
    // Off: every `Authorization: ApeKey` is refused (503).
    acceptKeys: s.bool(true),
    // ApeKeys per user.
    maxKeysPerUser: s.int(5, 0),
    // Random bytes of a new key's secret.
    apeKeyBytes: s.int(24, 24, 256),
    // bcrypt cost of a new key's hash.
    apeKeySaltRounds: s.int(10, 4, 15),
  }),
  users: s.obj({
    // Off: `POST /users/signup` answers 503.
    signUp: s.bool(true),
    // A result whose hash is among the user's last maxHashes results is a duplicate (466).
    lastHashesCheck: s.obj({ enabled: s.bool(true), maxHashes: s.int(10, 0, 100) }),
    // The chat-platform link (`/users/chat/*`, `/users/discord/*`); off: 503.
    discordIntegration: s.obj({ enabled: s.bool(true) }),
    // The original's key, kept for its clients' configuration pages; nothing here bans automatically.
    autoBan: s.obj({ enabled: s.bool(false), maxCount: s.int(5, 1), maxHours: s.int(1, 1) }),
    // Off: public profiles (`GET /users/{uidOrName}/profile`) answer 503.
    profiles: s.obj({ enabled: s.bool(true) }),
    // XP per result (spec "Rules for XP"): off, and every figure 0, until an operator sets them.
    xp: s.obj({
      enabled: s.bool(false),
      // Added to the XP modifier per difficulty level of each funbox used.
      funboxBonus: s.num(0),
      // Multiplies the XP of every result.
      gainMultiplier: s.num(0),
      // Bounds of the bonus for the first result of a UTC day (5 % of the user's XP, kept within them).
      maxDailyBonus: s.num(0),
      minDailyBonus: s.num(0),
      // Streak bonus: the streak's days, up to maxStreakDays, mapped onto 0..maxStreakMultiplier of the modifier.
      streak: s.obj({ enabled: s.bool(false), maxStreakDays: s.num(0, 0), maxStreakMultiplier: s.num(0) }),
    }),
    // The inbox (reward mails); past maxMail the oldest mail is dropped.
    inbox: s.obj({ enabled: s.bool(true), maxMail: s.int(50, 0, 1000) }),
    // Premium accounts (higher result limit, test activity); off: nobody is premium.
    premium: s.obj({ enabled: s.bool(false) }),
  }),
  rateLimiting: s.obj({
    // Failed authentications counted per client IP; at maxAttempts points within windowSeconds the IP gets 429.
    badAuthentication: s.obj({
      enabled: s.bool(true),
      maxAttempts: s.int(30, 1),
      windowSeconds: s.int(3600, 1),
      // The original's keys: points per flagged response, and the statuses that count (those of our auth step).
      penalty: s.num(1, 0),
      flaggedStatusCodes: s.arr(s.int(0, 100, 599), [401, 404, 470, 471], 100),
    }),
  }),
  // Daily boards (Redis, one per UTC day) of the boards validModeRules enable.
  dailyLeaderboards: s.obj({
    enabled: s.bool(true),
    // Entries kept per board.
    maxResults: s.int(250, 0),
    // How long a day's boards are kept.
    leaderboardExpirationTimeInDays: s.num(2, 0),
    // The boards that get daily boards: rules of full-match regular expressions on language, mode and mode2.
    validModeRules: s.arr(modeRule, [
      { language: 'english', mode: 'time', mode2: '15' },
      { language: 'english', mode: 'time', mode2: '60' },
    ]),
    // Of those, the boards whose closing day pays rewards.
    scheduleRewardsModeRules: s.arr(modeRule, []),
    // Places of a closed day's standings announced.
    topResultsToAnnounce: s.int(1, 1),
    // XP mailed for a final rank: from maxReward at minRank down to minReward at maxRank; the largest bracket wins.
    xpRewardBrackets: s.arr(rewardBracket, []),
  }),
  leaderboards: s.obj({
    // Seconds a user must have typed to be ranked on the all-time boards (ignored with MODE=dev).
    minTimeTyping: s.num(7200, 0),
    rebuildIntervalSeconds: s.int(300, 10),
    // The weekly XP board (Redis, one per ISO week from Monday 00:00 UTC).
    weeklyXp: s.obj({
      enabled: s.bool(true),
      // How long a week's board is kept.
      expirationTimeInDays: s.num(15, 0),
      // XP mailed for a final rank of the week, as for the daily boards.
      xpRewardBrackets: s.arr(rewardBracket, []),
    }),
  }),
  // Friend requests and friendships; maxPerUser: connections a user may have that are not rejected.
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
    quarantine: { enabled: boolean; retentionDays: Int; maxPerUser: Int; maxTotal: Int };
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
    /** How often the all-time snapshot is rebuilt (every 5 minutes by default: docs/decisions/0020-all-time-leaderboards.md). */
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
