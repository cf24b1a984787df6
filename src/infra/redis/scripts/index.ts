import type { ClientContext, Result } from 'ioredis';
import { LEADERBOARD_SCRIPTS } from './leaderboards.lua';
import { RATE_LIMIT_ADD, RATE_LIMIT_INCREMENT, RATE_LIMIT_UNLESS_BANNED } from './rate-limit.lua';

export interface RedisScript {
  name: string;
  numberOfKeys: number;
  lua: string;
}

/** Every Lua script, registered on the shared client at start. A feature adds its script here. */
export const REDIS_SCRIPTS: RedisScript[] = [
  RATE_LIMIT_INCREMENT,
  RATE_LIMIT_ADD,
  RATE_LIMIT_UNLESS_BANNED,
  ...LEADERBOARD_SCRIPTS,
];

declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    /** Fixed-window counter: returns [hits, msUntilReset]. */
    rateLimitIncrement(key: string, windowMs: number): Result<[number, number], Context>;
    /** Weighted fixed-window counter: returns [points (a decimal string), msUntilReset]. */
    rateLimitAdd(key: string, windowMs: number, points: number): Result<[string, number], Context>;
    /** Ban check, then counters until one is over its limit: [1] when banned, else [0, hits, msUntilReset, ...]. */
    rateLimitUnlessBanned(
      banKey: string,
      firstKey: string,
      secondKey: string,
      banThreshold: number,
      counters: 1 | 2,
      ...windowAndLimitPerCounter: number[]
    ): Result<number[], Context>;
  }
}
