import { MINUTE, type RateLimitClass } from './time';

/**
 * Spec "Limits": leaderboard reads 60 per minute, one counter shared by every board route (as the original's single
 * `leaderboardsGet`); ApeKey calls to the rank route get a higher class of their own.
 */
export const LEADERBOARD_LIMITS = {
  leaderboardsGet: { windowMs: MINUTE, max: 60 },
  leaderboardsGetApe: { windowMs: MINUTE, max: 120 },
} satisfies Record<string, RateLimitClass>;
