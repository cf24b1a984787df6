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
