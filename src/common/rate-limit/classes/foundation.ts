import { HOUR, MINUTE, SECOND, type RateLimitClass } from './time';

export const FOUNDATION_LIMITS = {
  // ApeKey calls to routes without an ApeKey class of their own.
  defaultApeKey: { windowMs: MINUTE, max: 120 },
  status: { windowMs: MINUTE, max: 120 },
  // The original's adminLimit (contract facts §4, §11): every /admin route, PATCH /configuration and its schema.
  adminLimit: { windowMs: 5 * SECOND, max: 1 },
  // The original puts no endpoint limiter on GET /configuration (every page load of its client reads it), only its
  // root limiter of 1000 per hour per IP (contract facts §3.9, §4): that budget, as a class.
  configurationGet: { windowMs: HOUR, max: 1000 },
} satisfies Record<string, RateLimitClass>;
