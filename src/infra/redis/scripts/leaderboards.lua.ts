import type { ClientContext, Result } from 'ioredis';
import type { RedisScript } from './index';

/**
 * Daily and weekly boards: a sorted set of scores (member = uid) and a hash of entries (uid → JSON), both keys with
 * one hash tag. Every write expires both keys, so a board disappears on its own after its retention.
 */

/**
 * KEYS[1] scores, KEYS[2] entries; ARGV: maxResults, ttlMs, uid, score, entry JSON.
 * Only ever raises a user's score (`ZADD GT`); trims the lowest scores past maxResults. Returns the 0-based rank when
 * this call improved the user's entry and it survived the trim, else -1.
 */
export const DAILY_LEADERBOARD_ADD: RedisScript = {
  name: 'dailyLeaderboardAdd',
  numberOfKeys: 2,
  lua: `
local uid = ARGV[3]
local changed = redis.call('ZADD', KEYS[1], 'GT', 'CH', ARGV[4], uid)
if changed == 1 then redis.call('HSET', KEYS[2], uid, ARGV[5]) end
local evicted = false
local excess = redis.call('ZCARD', KEYS[1]) - tonumber(ARGV[1])
if excess > 0 then
  local popped = redis.call('ZPOPMIN', KEYS[1], excess)
  for i = 1, #popped, 2 do
    redis.call('HDEL', KEYS[2], popped[i])
    if popped[i] == uid then evicted = true end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
if changed == 0 or evicted then return -1 end
return redis.call('ZREVRANK', KEYS[1], uid)
`,
};

/**
 * KEYS[1] scores, KEYS[2] entries; ARGV: xp, ttlMs, uid, entry JSON, seconds typed, result id.
 * Adds the XP and the time typed of one result. The entry remembers the last result id it counted, so a retry of the
 * same result changes nothing. Returns the 0-based rank.
 */
export const WEEKLY_XP_LEADERBOARD_ADD: RedisScript = {
  name: 'weeklyXpLeaderboardAdd',
  numberOfKeys: 2,
  lua: `
local uid = ARGV[3]
local seconds = tonumber(ARGV[5])
local previous = redis.call('HGET', KEYS[2], uid)
if previous then
  local old = cjson.decode(previous)
  if old.lastResultId == ARGV[6] then return redis.call('ZREVRANK', KEYS[1], uid) end
  seconds = seconds + (tonumber(old.timeTypedSeconds) or 0)
end
local entry = cjson.decode(ARGV[4])
entry.timeTypedSeconds = seconds
entry.lastResultId = ARGV[6]
redis.call('HSET', KEYS[2], uid, cjson.encode(entry))
redis.call('ZINCRBY', KEYS[1], ARGV[1], uid)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return redis.call('ZREVRANK', KEYS[1], uid)
`,
};

/**
 * KEYS[1] scores, KEYS[2] entries; ARGV: total xp, ttlMs, uid, entry JSON (with timeTypedSeconds, lastResultId,
 * lastActivityTimestamp). Board catch-up: sets a user's weekly total as counted from PostgreSQL, replacing what the
 * post-commit hooks added (so repeating it never double-counts). Skipped (returns 0) when the stored entry already
 * counts a newer result than the catch-up saw: that user is caught up by the next pass. Returns 1 when written.
 */
export const WEEKLY_XP_LEADERBOARD_SET: RedisScript = {
  name: 'weeklyXpLeaderboardSet',
  numberOfKeys: 2,
  lua: `
local entry = cjson.decode(ARGV[4])
local previous = redis.call('HGET', KEYS[2], ARGV[3])
if previous then
  local old = cjson.decode(previous)
  if (tonumber(old.lastActivityTimestamp) or 0) > tonumber(entry.lastActivityTimestamp) then return 0 end
end
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
`,
};

/**
 * KEYS[1] scores, KEYS[2] entries; ARGV: first, last (0-based, best first).
 * One consistent read of a page: [count, lowest score or false, [uid, score, entry JSON]...].
 */
export const LEADERBOARD_PAGE: RedisScript = {
  name: 'leaderboardPage',
  numberOfKeys: 2,
  lua: `
local count = redis.call('ZCARD', KEYS[1])
local lowest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local page = redis.call('ZRANGE', KEYS[1], ARGV[1], ARGV[2], 'REV', 'WITHSCORES')
local rows = {}
for i = 1, #page, 2 do
  rows[#rows + 1] = { page[i], page[i + 1], redis.call('HGET', KEYS[2], page[i]) or false }
end
return { count, lowest[2] or false, rows }
`,
};

/**
 * KEYS[1] scores, KEYS[2] entries; ARGV: uids. The given users that are on the board:
 * [[uid, score, 0-based global rank, entry JSON]...] (unordered; at most a friends list long).
 */
export const LEADERBOARD_MEMBERS: RedisScript = {
  name: 'leaderboardMembers',
  numberOfKeys: 2,
  lua: `
local rows = {}
for i = 1, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score then
    rows[#rows + 1] = {
      ARGV[i], score, redis.call('ZREVRANK', KEYS[1], ARGV[i]), redis.call('HGET', KEYS[2], ARGV[i]) or false
    }
  end
end
return rows
`,
};

export const LEADERBOARD_SCRIPTS = [
  DAILY_LEADERBOARD_ADD,
  WEEKLY_XP_LEADERBOARD_ADD,
  WEEKLY_XP_LEADERBOARD_SET,
  LEADERBOARD_PAGE,
  LEADERBOARD_MEMBERS,
];

/** A page row: uid, score, entry JSON (null if the hash lost it). */
export type PageRow = [uid: string, score: string, entry: string | null];
/** A member row: uid, score, 0-based global rank, entry JSON. */
export type MemberRow = [uid: string, score: string, rank: number, entry: string | null];

declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    dailyLeaderboardAdd(
      scores: string,
      entries: string,
      maxResults: number,
      ttlMs: number,
      uid: string,
      score: number,
      entry: string,
    ): Result<number, Context>;
    weeklyXpLeaderboardAdd(
      scores: string,
      entries: string,
      xp: number,
      ttlMs: number,
      uid: string,
      entry: string,
      seconds: number,
      resultId: string,
    ): Result<number, Context>;
    weeklyXpLeaderboardSet(
      scores: string,
      entries: string,
      xp: number,
      ttlMs: number,
      uid: string,
      entry: string,
    ): Result<number, Context>;
    leaderboardPage(
      scores: string,
      entries: string,
      first: number,
      last: number,
    ): Result<[number, string | null, PageRow[]], Context>;
    leaderboardMembers(scores: string, entries: string, ...uids: string[]): Result<MemberRow[], Context>;
  }
}
