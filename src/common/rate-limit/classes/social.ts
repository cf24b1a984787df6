import { MINUTE, type RateLimitClass } from './time';

/**
 * Connections, friends and ApeKey management. Ids are the original platform's; figures follow the spec's "user
 * endpoints 30-60 requests per minute": reads at the top of the range, writes at the bottom. POST, PATCH and DELETE
 * /ape-keys share one counter, as in the original.
 */
export const SOCIAL_LIMITS = {
  connectionGet: { windowMs: MINUTE, max: 60 },
  connectionCreate: { windowMs: MINUTE, max: 30 },
  connectionUpdate: { windowMs: MINUTE, max: 30 },
  connectionDelete: { windowMs: MINUTE, max: 30 },
  userFriendGet: { windowMs: MINUTE, max: 60 },
  apeKeysGet: { windowMs: MINUTE, max: 60 },
  apeKeysGenerate: { windowMs: MINUTE, max: 30 },
} satisfies Record<string, RateLimitClass>;
