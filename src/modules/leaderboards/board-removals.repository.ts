import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';

export type RemovalReason = 'ban' | 'optOut' | 'reset' | 'delete';

export interface QueuedRemoval {
  id: number;
  uid: string;
}

/**
 * The queue of users to take off the daily and weekly (Redis) boards (migration 20261126400100_board_removals): a
 * trigger on `users` queues bans, opt-outs and deletions, the reset handler queues resets, each in the transaction of
 * its change. Rows are deleted once the removal reached Redis; applying one twice is harmless.
 */
@Injectable()
export class BoardRemovalsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async enqueue(uid: string, reason: RemovalReason, executor: Executor = this.db): Promise<void> {
    await executor.insertInto('leaderboard_board_removals').values({ uid, reason }).execute();
  }

  /** The queued removals of one user (the purge right after the change forgets them once Redis has it). */
  async idsOf(uid: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('leaderboard_board_removals')
      .select('id')
      .where('uid', '=', uid)
      .execute();
    return rows.map((row) => row.id);
  }

  /** The oldest `limit` queued removals. */
  oldest(limit: number): Promise<QueuedRemoval[]> {
    return this.db
      .selectFrom('leaderboard_board_removals')
      .select(['id', 'uid'])
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async any(): Promise<boolean> {
    const row = await this.db
      .selectFrom('leaderboard_board_removals')
      .select('id')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async forget(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom('leaderboard_board_removals').where('id', 'in', ids).execute();
  }
}
