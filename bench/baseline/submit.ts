import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { redisKeys } from '../../src/infra/redis/keys';
import {
  DAY_MS,
  dailyScore,
  isoWeekStart,
  utcDayStart,
} from '../../src/modules/leaderboards/leaderboard-rules';

/**
 * The I/O of our `POST /results`, statement for statement, without the framework, validation or business rules:
 * what the guard does (bad-auth counter GET, the caller's account and permissions, the global and the route rate-limit
 * scripts), then the submission transaction (BEGIN, the locked account read with the bucket's personal best, the one
 * write statement, COMMIT), then the daily and weekly XP board scripts. Statements are the SQL Kysely sends for ours (src/common/auth/account.repository.ts,
 * src/modules/results/submission.repository.ts, submission-write.statement.ts), named prepared statements as ours
 * (src/infra/database/prepared-query.ts).
 */

const FIND_CALLER = `select "users"."uid", "users"."name", "users"."banned", "users"."premium_expires_at",
  (select coalesce(array_agg(permission), '{}') as "permissions" from "user_permissions"
   where "user_permissions"."uid" = "users"."uid") as "permissions"
  from "users" where "users"."uid" = $1`;

const LOCK_ACCOUNT = `select "name", "banned", "lb_opt_out", "xp", "time_typing", "streak_length", "streak_max_length",
  "streak_last_result_at", "streak_hour_offset", "last_result_at", "last_result_hashes", "inventory_badges",
  "premium_expires_at", "chat_id", "chat_avatar", "pb"."pb_wpm", "pb"."pb_held_result_id", null as "owned_tags"
  from "users" left join lateral (select "wpm" as "pb_wpm", "held_result_id" as "pb_held_result_id"
   from "personal_bests" where "personal_bests"."uid" = $1 and "mode" = $2 and "mode2" = $3 and "language" = $4
   and "difficulty" = $5 and "punctuation" = $6 and "numbers" = $7 and "lazy_mode" = $8) as "pb" on true
  where "users"."uid" = $9 for update of "users"`;

const RESULT_COLUMNS = `id, uid, timestamp, name, wpm, raw_wpm, acc, consistency, key_consistency, char_stats, mode,
  mode2, quote_length, language, difficulty, punctuation, numbers, lazy_mode, blind_mode, bailed_out, funbox, tags,
  test_duration, afk_duration, incomplete_test_seconds, restart_count, is_pb, chart_data, key_spacing_stats,
  key_duration_stats`;

const PB_COLUMNS =
  'mode, mode2, language, difficulty, punctuation, numbers, lazy_mode, wpm, acc, raw, consistency, timestamp';
const PB_KEY = 'mode, mode2, language, difficulty, punctuation, numbers, lazy_mode';
const PB_UPDATE =
  'wpm = excluded.wpm, acc = excluded.acc, raw = excluded.raw, consistency = excluded.consistency, timestamp = excluded.timestamp';

const placeholders = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => `$${from + i}`).join(', ');

/** The write statement of ours (data-modifying CTEs), with or without the personal-best upsert. */
function writeStatement(isPb: boolean): string {
  const parts = [
    `stored_result AS (INSERT INTO results (${RESULT_COLUMNS}) VALUES (${placeholders(1, 30)}))`,
  ];
  let n = 31;
  if (isPb) {
    parts.push(`personal_best AS (INSERT INTO personal_bests (uid, ${PB_COLUMNS}) VALUES (${placeholders(n, 13)})
      ON CONFLICT (uid, ${PB_KEY}) DO UPDATE SET ${PB_UPDATE})`);
    n += 13;
  }
  parts.push(`activity AS (INSERT INTO test_activity (uid, day, tests) VALUES ($${n}, $${n + 1}, 1)
    ON CONFLICT (uid, day) DO UPDATE SET tests = test_activity.tests + 1)`);
  parts.push(`account AS (UPDATE users SET completed_tests = completed_tests + 1,
    started_tests = started_tests + $${n + 2}, time_typing = time_typing + $${n + 3}, xp = xp + $${n + 4},
    streak_length = $${n + 5}, streak_max_length = $${n + 6}, streak_last_result_at = $${n + 7},
    last_result_at = $${n + 8}, last_result_hashes = coalesce($${n + 9}::text[], last_result_hashes)
    WHERE uid = $${n + 10})`);
  return `WITH ${parts.join(', ')} SELECT 1`;
}
const WRITE = { pb: writeStatement(true), plain: writeStatement(false) };

type Body = Record<string, unknown>;
const num = (v: unknown, fallback = 0) => (typeof v === 'number' ? v : fallback);
const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
const bool = (v: unknown) => v === true;

/** The uid of a token, read without verifying it (ours serves verified tokens from its cache). */
export function tokenSubject(authorization: string | undefined): string | null {
  const payload = authorization?.split('.')[1];
  if (!payload) return null;
  try {
    return (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string }).sub ?? null;
  } catch {
    return null;
  }
}

export async function submitResult(
  pool: pg.Pool,
  redis: Redis,
  ip: string,
  uid: string,
  result: Body,
): Promise<{ status: number; body: unknown }> {
  // As ours: the token's revocation marker (src/common/auth/token-verifier.service.ts reads it for a token it has not
  // verified in the last second, which is every submission of the bench's users), then the bad-authentication ban.
  await redis.get(redisKeys.tokensRevokedBefore(uid));
  await redis.get(redisKeys.badAuth(ip));
  const caller = await pool.query({ name: 'find_caller', text: FIND_CALLER, values: [uid] });
  if (caller.rowCount === 0) return { status: 404, body: { message: 'User not found', data: null } };
  // Both counters at once, as ours (src/common/rate-limit/rate-limit.guard.ts): one pipelined round trip.
  await Promise.all([
    redis.rateLimitIncrement(redisKeys.rateLimit(`ip:${ip}`, 'global'), 60_000),
    redis.rateLimitIncrement(redisKeys.rateLimit(`uid:${uid}`, 'resultsAdd'), 86_400_000),
  ]);

  const now = Math.floor(Date.now() / 1000) * 1000;
  const [mode, mode2, language] = [
    str(result.mode, 'time'),
    str(result.mode2, '15'),
    str(result.language, 'english'),
  ];
  const bucket = [
    mode,
    mode2,
    language,
    str(result.difficulty, 'normal'),
    bool(result.punctuation),
    bool(result.numbers),
    bool(result.lazyMode),
  ];
  const wpm = num(result.wpm);
  const client = await pool.connect();
  try {
    await client.query('begin');
    const locked = await client.query<{
      name: string;
      streak_length: number;
      streak_max_length: number;
      last_result_hashes: string[];
      pb_wpm: number | null;
    }>({ name: 'lock_account', text: LOCK_ACCOUNT, values: [uid, ...bucket, uid] });
    const account = locked.rows[0] as (typeof locked.rows)[number] & { time_typing: number };
    if (!account) throw new Error('user vanished');
    const isPb = result.mode !== 'quote' && (account.pb_wpm === null || wpm > account.pb_wpm);
    const id = randomBytes(12).toString('hex');
    const testDuration = num(result.testDuration);
    const chart = result.chartData === undefined ? null : JSON.stringify(result.chartData);
    const values: unknown[] = [
      id,
      uid,
      now,
      account.name,
      wpm,
      num(result.rawWpm),
      num(result.acc),
      num(result.consistency),
      num(result.keyConsistency),
      result.charStats ?? null,
      bucket[0],
      bucket[1],
      num(result.quoteLength, 0) || null,
      bucket[2],
      bucket[3],
      bucket[4],
      bucket[5],
      bucket[6],
      bool(result.blindMode),
      bool(result.bailedOut),
      result.funbox ?? [],
      result.tags ?? [],
      testDuration,
      num(result.afkDuration),
      num(result.incompleteTestSeconds),
      num(result.restartCount),
      isPb,
      chart,
      JSON.stringify({ average: 150, sd: 40 }),
      JSON.stringify({ average: 90, sd: 20 }),
    ];
    if (isPb)
      values.push(uid, ...bucket, wpm, num(result.acc), num(result.rawWpm), num(result.consistency), now);
    values.push(
      uid,
      Math.floor(now / 86_400_000),
      num(result.restartCount) + 1,
      testDuration + num(result.incompleteTestSeconds) - num(result.afkDuration),
      Math.round(testDuration * 2),
      account.streak_length + 1,
      Math.max(account.streak_max_length, account.streak_length + 1),
      now,
      now,
      [str(result.hash, ''), ...account.last_result_hashes].slice(0, 10),
      uid,
    );
    await client.query(
      isPb
        ? { name: 'write_pb', text: WRITE.pb, values }
        : { name: 'write_plain', text: WRITE.plain, values },
    );
    await client.query('commit');
    const xp = Math.round(testDuration * 2);
    // After the commit, as ours: the daily board (its modes) and the weekly XP board, for users past the typing time.
    if (account.time_typing > 7200) {
      const entry = JSON.stringify({ uid, name: account.name, wpm, acc: num(result.acc), timestamp: now });
      const seconds = testDuration + num(result.incompleteTestSeconds) - num(result.afkDuration);
      const week = redisKeys.weeklyXpLeaderboard(isoWeekStart(now));
      const daily =
        mode === 'time' && (mode2 === '15' || mode2 === '60')
          ? redisKeys.dailyLeaderboard(utcDayStart(now), language, mode, mode2)
          : null;
      await Promise.all([
        daily &&
          redis.dailyLeaderboardAdd(
            daily.scores,
            daily.entries,
            1000,
            2 * DAY_MS,
            uid,
            dailyScore(wpm, num(result.acc), now),
            entry,
          ),
        redis.weeklyXpLeaderboardAdd(week.scores, week.entries, xp, 8 * DAY_MS, uid, entry, seconds, id),
      ]);
    }
    return {
      status: 200,
      body: { message: 'Result saved', data: { isPb, insertedId: id, xp } },
    };
  } catch (e) {
    await client.query('rollback').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
