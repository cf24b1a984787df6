import { MINUTE, type RateLimitClass } from './time';

export const FOUNDATION_LIMITS = {
  // ApeKey calls to routes without an ApeKey class of their own.
  defaultApeKey: { windowMs: MINUTE, max: 120 },
  status: { windowMs: MINUTE, max: 120 },
  adminLimit: { windowMs: MINUTE, max: 30 },
  configurationGet: { windowMs: MINUTE, max: 60 },
} satisfies Record<string, RateLimitClass>;
