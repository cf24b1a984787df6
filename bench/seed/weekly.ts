import { redisKeys } from '../../src/infra/redis/keys';
import { createRedis } from '../../src/infra/redis/redis';
import { isoWeekStart } from '../../src/modules/leaderboards/leaderboard-rules';
import { nameOf, uidOf } from '../lib/dataset';
import { Random } from '../scenarios/result-body';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
const BATCH = 10_000;
/** The boards outlive the run by a day; the server's own writes set their expiry again anyway. */
const TTL_MS = 8 * 24 * 60 * 60 * 1000;

export interface WeeklyBoardSizes {
  /** Entries on this week's board (`weeksBefore=0`). */
  thisWeek: number;
  /** Entries on last week's board (`weeksBefore=1`). */
  lastWeek: number;
}

/**
 * Writes the two weekly XP boards the read scenarios page through, replacing whatever they held: users 0 .. n-1 of
 * the dataset, XP log-normally distributed, with the entry fields the server stores. Weekly boards live in Redis
 * and are keyed by the current ISO week, so the runner writes them right before it reads them rather than the
 * seeder once. Returns seconds taken.
 */
export async function seedWeeklyBoards(
  redisUrl: string,
  sizes: WeeklyBoardSizes,
  now = Date.now(),
): Promise<number> {
  const started = process.hrtime.bigint();
  // Deleting a board of a million entries blocks Redis for a while: no per-command timeout for the seeder.
  const redis = createRedis(redisUrl, { commandTimeoutMs: 600_000 });
  try {
    const thisWeek = isoWeekStart(now);
    for (const [weekStart, entries] of [
      [thisWeek, sizes.thisWeek],
      [thisWeek - WEEK_MS, sizes.lastWeek],
    ] as const) {
      const keys = redisKeys.weeklyXpLeaderboard(weekStart);
      await redis.del(keys.scores, keys.entries);
      const rng = new Random(weekStart % 1_000_003);
      for (let from = 0; from < entries; from += BATCH) {
        const scores: (string | number)[] = [];
        const fields: string[] = [];
        for (let i = from; i < Math.min(entries, from + BATCH); i++) {
          const uid = uidOf(i);
          const xp = Math.max(1, Math.round(Math.exp(rng.normal(Math.log(800), 1.1))));
          scores.push(xp, uid);
          fields.push(
            uid,
            JSON.stringify({
              uid,
              name: nameOf(i),
              lastActivityTimestamp: weekStart + rng.int(0, WEEK_MS - 1),
              timeTypedSeconds: Math.round(xp * 1.7),
              ...(i % 7 === 0 ? { badgeId: 1 + (i % 13) } : {}),
              ...(i % 11 === 0 ? { isPremium: true } : {}),
              lastResultId: `bench-${i}`,
            }),
          );
        }
        await redis
          .pipeline()
          .zadd(keys.scores, ...scores)
          .hset(keys.entries, ...fields)
          .exec();
      }
      await redis.pexpire(keys.scores, TTL_MS);
      await redis.pexpire(keys.entries, TTL_MS);
    }
  } finally {
    redis.disconnect();
  }
  return Number(process.hrtime.bigint() - started) / 1e9;
}
