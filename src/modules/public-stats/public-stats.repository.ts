import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import { BUCKET_WIDTH, LAST_BUCKET, type BucketCount } from './speed-histogram';
import type { Int } from '../../common/int';

export interface TypingTotals {
  timeTyping: number;
  testsCompleted: Int;
  testsStarted: Int;
}

/** Read-only aggregates over other features' tables (the leaderboard snapshot, the users' typing stats). */
@Injectable()
export class PublicStatsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Entries of one all-time board counted per wpm bucket. One board's entries are a contiguous index range
   * (board_id, position), so this reads that board only.
   */
  async speedBuckets(language: string, mode: string, mode2: string): Promise<BucketCount[]> {
    const bucket = sql<number>`CASE WHEN floor(e.wpm / ${sql.lit(BUCKET_WIDTH)}) * ${sql.lit(BUCKET_WIDTH)} > ${sql.lit(LAST_BUCKET)}
      THEN -1 ELSE (floor(e.wpm / ${sql.lit(BUCKET_WIDTH)}) * ${sql.lit(BUCKET_WIDTH)})::int END`;
    const rows = await this.db
      .selectFrom('leaderboard_boards as b')
      .innerJoin('leaderboard_entries as e', 'e.board_id', 'b.id')
      .select([bucket.as('bucket'), (eb) => eb.fn.countAll<number>().as('count')])
      .where('b.language', '=', language)
      .where('b.mode', '=', mode)
      .where('b.mode2', '=', mode2)
      .groupBy(sql`1`)
      .orderBy(sql`1`)
      .execute();
    return rows.map((r) => ({ bucket: Number(r.bucket), count: Number(r.count) }));
  }

  /** Site-wide totals, summed from every account's typing stats (no shared counter row to lock on submit). */
  async typingTotals(): Promise<TypingTotals> {
    const row = await this.db
      .selectFrom('users')
      .select([
        sql<number>`coalesce(sum(time_typing), 0)::float8`.as('timeTyping'),
        sql<number>`coalesce(sum(completed_tests), 0)::int8`.as('testsCompleted'),
        sql<number>`coalesce(sum(started_tests), 0)::int8`.as('testsStarted'),
      ])
      .executeTakeFirstOrThrow();
    return {
      timeTyping: Number(row.timeTyping),
      testsCompleted: Number(row.testsCompleted),
      testsStarted: Number(row.testsStarted),
    };
  }
}
