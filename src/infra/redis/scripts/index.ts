import type { ClientContext, Result } from 'ioredis';
import { LEADERBOARD_SCRIPTS } from './leaderboards.lua';
import { RATE_LIMIT_ADD, RATE_LIMIT_INCREMENT, RATE_LIMIT_UNLESS_BANNED } from './rate-limit.lua';
import { TRIBE_SCRIPTS } from './tribe.lua';

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
  ...TRIBE_SCRIPTS,
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
    /** Tribe room compare-and-set: the new version, or -1 when the room changed since it was read. */
    tribeRoomSave(
      roomKey: string,
      progressKey: string,
      expectedVersion: number,
      state: string,
      config: string,
      ttlMs: number,
      remove: '0' | '1',
    ): Result<number, Context>;
    tribeProgressSet(
      roomKey: string,
      progressKey: string,
      playerId: string,
      progress: string,
      ttlMs: number,
    ): Result<number, Context>;
    tribeRoomIndex(
      roomsKey: string,
      publicKey: string,
      roomId: string,
      version: number,
      summary: string,
      isPublic: '0' | '1',
    ): Result<number, Context>;
    tribeScheduleClaim(
      scheduleKey: string,
      now: number,
      leaseUntil: number,
      limit: number,
    ): Result<string[], Context>;
    tribeScheduleSettle(
      scheduleKey: string,
      entry: string,
      lease: number,
      next: number | '',
    ): Result<number, Context>;
  }
}
