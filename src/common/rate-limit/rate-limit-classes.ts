import { CONTENT_LIMITS } from './classes/content';
import { FOUNDATION_LIMITS } from './classes/foundation';
import { LEADERBOARD_LIMITS } from './classes/leaderboards';
import { PORTABILITY_LIMITS } from './classes/portability';
import { PUBLIC_LIMITS } from './classes/public';
import { SOCIAL_LIMITS } from './classes/social';
import { RESULTS_LIMITS } from './classes/results';
import type { RateLimitClass } from './classes/time';
import { TRIBE_EVENT_LIMITS } from './classes/tribe';
import { USERS_LIMITS } from './classes/users';

export type { RateLimitClass };

/**
 * Per-route rate-limit classes (spec "Limits": results 500/day, leaderboard reads 60/min, user endpoints 30-60/min,
 * config updates 120/h; ApeKey classes higher). Routes naming the same id share one counter per caller (uid when
 * signed in, else IP). Each feature declares its classes in `classes/<feature>.ts`. Operators override any class
 * with RATE_LIMIT_OVERRIDES; `MODE=dev` multiplies every max by 100.
 */
export const RATE_LIMIT_CLASSES = {
  ...FOUNDATION_LIMITS,
  ...CONTENT_LIMITS,
  ...SOCIAL_LIMITS,
  ...USERS_LIMITS,
  ...RESULTS_LIMITS,
  ...LEADERBOARD_LIMITS,
  ...PUBLIC_LIMITS,
  ...PORTABILITY_LIMITS,
  ...TRIBE_EVENT_LIMITS,
} satisfies Record<string, RateLimitClass>;

export type RateLimitId = keyof typeof RATE_LIMIT_CLASSES;
