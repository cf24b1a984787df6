export interface RateLimitClass {
  windowMs: number;
  max: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Per-route rate-limit classes (spec "Limits"): routes naming the same id share one counter per caller. Counters are
 * keyed by uid for signed-in callers and by IP otherwise. ApeKey calls use their own, higher classes. Operators
 * override any class with RATE_LIMIT_OVERRIDES; `MODE=dev` multiplies every max by 100.
 */
export const RATE_LIMIT_CLASSES = {
  // ApeKey calls to routes without an ApeKey class of their own.
  defaultApeKey: { windowMs: MINUTE, max: 120 },
  status: { windowMs: MINUTE, max: 120 },
  adminLimit: { windowMs: MINUTE, max: 30 },
  configurationGet: { windowMs: MINUTE, max: 60 },
  // Results: 500 submissions per day.
  resultsAdd: { windowMs: DAY, max: 500 },
  resultsGet: { windowMs: MINUTE, max: 60 },
  resultsGetApeKey: { windowMs: MINUTE, max: 120 },
  resultsDelete: { windowMs: HOUR, max: 10 },
  // Leaderboard reads: 60 per minute.
  leaderboardsGet: { windowMs: MINUTE, max: 60 },
  leaderboardsGetApeKey: { windowMs: MINUTE, max: 120 },
  // User endpoints: 30-60 per minute.
  userGet: { windowMs: MINUTE, max: 60 },
  userUpdate: { windowMs: MINUTE, max: 30 },
  userSensitive: { windowMs: HOUR, max: 10 },
  userSignup: { windowMs: DAY, max: 10 },
  // Config updates: 120 per hour.
  configGet: { windowMs: MINUTE, max: 60 },
  configUpdate: { windowMs: HOUR, max: 120 },
  webhook: { windowMs: MINUTE, max: 60 },
} satisfies Record<string, RateLimitClass>;

export type RateLimitId = keyof typeof RATE_LIMIT_CLASSES;
