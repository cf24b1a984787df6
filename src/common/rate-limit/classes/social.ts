import { HOUR, MINUTE, type RateLimitClass } from './time';

/**
 * Connections, friends and ApeKey management, with the original platform's ids. `/connections` and `/ape-keys` are
 * not user endpoints and the spec gives them no figure, so they keep the original's (contract facts §4);
 * `/users/friends` follows the spec's "user endpoints 30-60 requests per minute". POST, PATCH and DELETE /ape-keys
 * share one counter, as in the original.
 */
export const SOCIAL_LIMITS = {
  connectionGet: { windowMs: HOUR, max: 60 },
  connectionCreate: { windowMs: HOUR, max: 60 },
  connectionUpdate: { windowMs: HOUR, max: 60 },
  connectionDelete: { windowMs: HOUR, max: 60 },
  userFriendGet: { windowMs: MINUTE, max: 60 },
  apeKeysGet: { windowMs: HOUR, max: 120 },
  apeKeysGenerate: { windowMs: HOUR, max: 15 },
} satisfies Record<string, RateLimitClass>;
