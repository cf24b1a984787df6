import { MINUTE, type RateLimitClass } from './time';

/** Anonymous reads every page load of the original client makes (the original platform's classes). */
export const PUBLIC_LIMITS = {
  psaGet: { windowMs: MINUTE, max: 60 },
  publicStatsGet: { windowMs: MINUTE, max: 60 },
} satisfies Record<string, RateLimitClass>;
