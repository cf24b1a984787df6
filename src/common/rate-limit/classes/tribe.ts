import { SECOND, type RateLimitClass } from './time';

/**
 * Tribe (multiplayer) events, counted per connection in the replica holding it (a connection lives on one replica).
 * The client's own pace: progress twice a second, chat at most every half second, `system_stats` every 15 s, a
 * config sync at most once a second; these leave room for bursts and stop floods.
 */
export const TRIBE_EVENT_LIMITS = {
  tribeProgress: { windowMs: 10 * SECOND, max: 60 },
  tribeChat: { windowMs: 10 * SECOND, max: 20 },
  tribeRoomAction: { windowMs: 10 * SECOND, max: 40 },
  tribeSystem: { windowMs: 10 * SECOND, max: 20 },
  tribeResult: { windowMs: 10 * SECOND, max: 5 },
} satisfies Record<string, RateLimitClass>;
