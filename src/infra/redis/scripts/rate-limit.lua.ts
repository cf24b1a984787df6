import type { RedisScript } from './index';

/**
 * KEYS[1] counter; ARGV[1] window in ms. Increments and starts the window on the first hit, in one round trip and
 * atomically, so concurrent requests on several replicas never lose a count or leave a counter without expiry.
 */
export const RATE_LIMIT_INCREMENT: RedisScript = {
  name: 'rateLimitIncrement',
  numberOfKeys: 1,
  lua: `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { hits, ttl }
`,
};

/**
 * KEYS[1] bad-authentication points of an IP; KEYS[2] and KEYS[3] fixed-window counters, in the order they are
 * judged; ARGV[1] the points that ban (negative: bans are off), ARGV[2] how many counters count (1: KEYS[3] is not
 * touched), then per counter its window in ms and its limit.
 * The ban check and the rate limits of an anonymous request in one round trip, with the semantics of doing them one
 * after the other: a banned IP counts nothing ({ 1 }); otherwise each counter is counted like `rateLimitIncrement`
 * and the first one over its limit stops the rest ({ 0, hits, ttl, hits, ttl, ... }). All keys share one hash tag.
 */
export const RATE_LIMIT_UNLESS_BANNED: RedisScript = {
  name: 'rateLimitUnlessBanned',
  numberOfKeys: 3,
  lua: `
local threshold = tonumber(ARGV[1])
if threshold >= 0 and tonumber(redis.call('GET', KEYS[1]) or '0') >= threshold then
  return { 1 }
end
local out = { 0 }
for i = 2, tonumber(ARGV[2]) + 1 do
  local window = tonumber(ARGV[i * 2 - 1])
  local hits = redis.call('INCR', KEYS[i])
  local ttl = redis.call('PTTL', KEYS[i])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[i], window)
    ttl = window
  end
  out[#out + 1] = hits
  out[#out + 1] = ttl
  if hits > tonumber(ARGV[i * 2]) then
    break
  end
end
return out
`,
};

/**
 * KEYS[1] counter; ARGV[1] window in ms; ARGV[2] points to add (may be fractional). Same window as
 * `rateLimitIncrement`, for counters that weigh their hits (the bad-authentication penalty). Returns the points as a
 * string (Redis floats are strings) and the ms until the window ends.
 */
export const RATE_LIMIT_ADD: RedisScript = {
  name: 'rateLimitAdd',
  numberOfKeys: 1,
  lua: `
local points = redis.call('INCRBYFLOAT', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { points, ttl }
`,
};
