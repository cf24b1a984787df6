import type { RedisScript } from './index';

/**
 * KEYS[1] a Tribe room (hash: `v` version, `s` state, `c` config), KEYS[2] its progress hash; ARGV[1] the version the
 * change was computed from (0: the room must not exist yet), ARGV[2] the state JSON, ARGV[3] the config JSON or ''
 * (unchanged), ARGV[4] the room's time to live in ms, ARGV[5] '1' to delete the room instead.
 * Compare-and-set: the new version, or -1 when someone else changed the room since it was read (the caller reads it
 * again and recomputes). Both keys share the room's hash tag.
 */
export const TRIBE_ROOM_SAVE: RedisScript = {
  name: 'tribeRoomSave',
  numberOfKeys: 2,
  lua: `
local current = tonumber(redis.call('HGET', KEYS[1], 'v') or '0')
if current ~= tonumber(ARGV[1]) then return -1 end
local nextVersion = current + 1
if ARGV[5] == '1' then
  redis.call('DEL', KEYS[1], KEYS[2])
  return nextVersion
end
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'v', nextVersion, 's', ARGV[2], 'c', ARGV[3])
else
  redis.call('HSET', KEYS[1], 'v', nextVersion, 's', ARGV[2])
end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return nextVersion
`,
};

/**
 * KEYS[1] the room, KEYS[2] its progress hash; ARGV[1] the player, ARGV[2] its progress JSON, ARGV[3] time to live in
 * ms. Stores a racer's last progress only while the room exists, so a late tick never leaves a key without expiry.
 */
export const TRIBE_PROGRESS_SET: RedisScript = {
  name: 'tribeProgressSet',
  numberOfKeys: 2,
  lua: `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
`,
};

/**
 * KEYS[1] every room's summary (hash), KEYS[2] the public rooms (set); ARGV[1] the room, ARGV[2] its version,
 * ARGV[3] its summary JSON ('' when the room is gone), ARGV[4] '1' when it is public.
 * Keeps the index of rooms in step with the rooms, newest version first: two replicas storing changes of one room
 * one after the other may index them in the other order, and the older one must not win.
 */
export const TRIBE_ROOM_INDEX: RedisScript = {
  name: 'tribeRoomIndex',
  numberOfKeys: 2,
  lua: `
local known = redis.call('HGET', KEYS[1], ARGV[1])
if known then
  local knownVersion = tonumber(string.match(known, '^(%d+)|'))
  if knownVersion and knownVersion > tonumber(ARGV[2]) then return 0 end
end
if ARGV[3] == '' then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('SREM', KEYS[2], ARGV[1])
  return 1
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. ARGV[3])
if ARGV[4] == '1' then
  redis.call('SADD', KEYS[2], ARGV[1])
else
  redis.call('SREM', KEYS[2], ARGV[1])
end
return 1
`,
};

/**
 * KEYS[1] the schedule of room timers (sorted set, score: when due); ARGV[1] now, ARGV[2] the lease's end, ARGV[3]
 * how many at most. Claims the due entries: each is pushed to the lease's end, so no other replica takes it before
 * then. The claimant settles it (`tribeScheduleSettle`); if it dies first, the entry comes due again after the lease.
 * Returns entry, due time, entry, due time, ... (a periodic tick keeps its cadence from the time it was due).
 */
export const TRIBE_SCHEDULE_CLAIM: RedisScript = {
  name: 'tribeScheduleClaim',
  numberOfKeys: 1,
  lua: `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, tonumber(ARGV[3]))
for i = 1, #due, 2 do
  redis.call('ZADD', KEYS[1], ARGV[2], due[i])
end
return due
`,
};

/**
 * KEYS[1] the schedule; ARGV[1] an entry, ARGV[2] the lease its claimant set, ARGV[3] when it is due next ('' to
 * drop it). Only while the entry still carries that lease: an entry someone rescheduled since stays as they set it.
 */
export const TRIBE_SCHEDULE_SETTLE: RedisScript = {
  name: 'tribeScheduleSettle',
  numberOfKeys: 1,
  lua: `
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
`,
};

export const TRIBE_SCRIPTS: RedisScript[] = [
  TRIBE_ROOM_SAVE,
  TRIBE_PROGRESS_SET,
  TRIBE_ROOM_INDEX,
  TRIBE_SCHEDULE_CLAIM,
  TRIBE_SCHEDULE_SETTLE,
];
