import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { BoardKey } from './leaderboard-rules';

export interface SnapshotRow {
  rank: number;
  uid: string;
  wpm: number;
  acc: number;
  raw: number;
  consistency: number;
  timestamp: number;
  name: string;
  chat_id: string | null;
  chat_avatar: string | null;
  badge_id: number | null;
  premium_expires_at: number | null;
}

/**
 * Reads of the all-time snapshot. Ranks and values come from the snapshot; names, badges and chat links from the
 * user row (always current). Banned and opted-out users are filtered here, so they vanish from reads the moment the
 * flag is set, not only at the next rebuild.
 */
@Injectable()
export class AllTimeRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  private boardId(board: BoardKey) {
    return this.db
      .selectFrom('leaderboard_boards')
      .select('id')
      .where('language', '=', board.language)
      .where('mode', '=', board.mode)
      .where('mode2', '=', board.mode2);
  }

  private entries(board: BoardKey) {
    return this.db
      .selectFrom('leaderboard_entries as e')
      .innerJoin('users as u', 'u.uid', 'e.uid')
      .select([
        'e.rank',
        'e.uid',
        'e.wpm',
        'e.acc',
        'e.raw',
        'e.consistency',
        'e.timestamp',
        'u.name',
        'u.chat_id',
        'u.chat_avatar',
        'u.premium_expires_at',
        sql<number | null>`(
          SELECT (badge->>'id')::int FROM jsonb_array_elements(u.inventory_badges) badge
          WHERE badge->>'selected' = 'true' LIMIT 1
        )`.as('badge_id'),
      ])
      .where('e.board_id', '=', this.boardId(board))
      .where('u.banned', '=', false)
      .where('u.lb_opt_out', '=', false);
  }

  /** Ranks first+1 .. first+size: a range read on (board_id, rank), however large the board. */
  async page(board: BoardKey, first: number, size: number): Promise<SnapshotRow[]> {
    return this.entries(board)
      .where('e.rank', '>', first)
      .where('e.rank', '<=', first + size)
      .orderBy('e.rank')
      .execute();
  }

  /** Entries on the board; the last rank of the snapshot (one index probe, never a count over the board). */
  async count(board: BoardKey): Promise<number> {
    const row = await this.db
      .selectFrom('leaderboard_entries as e')
      .select('e.rank')
      .where('e.board_id', '=', this.boardId(board))
      .orderBy('e.rank', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.rank ?? 0;
  }

  /** The entries of the given users on a board, best first. */
  async ofUsers(board: BoardKey, uids: string[]): Promise<SnapshotRow[]> {
    if (uids.length === 0) return [];
    return this.entries(board).where('e.uid', 'in', uids).orderBy('e.rank').execute();
  }

  /** Removes a user's rows at once (the next rebuild would drop them anyway). */
  async remove(uid: string): Promise<void> {
    await this.db.deleteFrom('leaderboard_entries').where('uid', '=', uid).execute();
  }
}
