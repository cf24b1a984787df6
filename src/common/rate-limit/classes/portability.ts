import { HOUR, type RateLimitClass } from './time';

/**
 * Data portability (issue 22). An export streams the whole account from a snapshot that holds a database connection
 * for as long as the download takes: a few per hour per account is what a person needs (a retry or two).
 */
export const PORTABILITY_LIMITS = {
  userExport: { windowMs: HOUR, max: 3 },
  // The public key other instances' operators read once, when they trust this one (cheap, public).
  instanceKey: { windowMs: HOUR, max: 1000 },
} satisfies Record<string, RateLimitClass>;
