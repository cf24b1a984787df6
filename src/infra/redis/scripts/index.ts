import type { ClientContext, Result } from 'ioredis';
import { LEADERBOARD_SCRIPTS } from './leaderboards.lua';
import { RATE_LIMIT_INCREMENT } from './rate-limit.lua';

export interface RedisScript {
  name: string;
  numberOfKeys: number;
  lua: string;
}

/** Every Lua script, registered on the shared client at start. A feature adds its script here. */
export const REDIS_SCRIPTS: RedisScript[] = [RATE_LIMIT_INCREMENT, ...LEADERBOARD_SCRIPTS];

declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    /** Fixed-window counter: returns [hits, msUntilReset]. */
    rateLimitIncrement(key: string, windowMs: number): Result<[number, number], Context>;
  }
}
