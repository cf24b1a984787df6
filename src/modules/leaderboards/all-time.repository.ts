import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import { PreparedQuery } from '../../infra/database/prepared-query';
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
  /** Entries on the board when the snapshot was built. */
  board_size: number;
}

/** The index on snapshot uids is on their 64-bit hash; the uid itself is compared too. */
const uidHash = (uid: string) => sql<string>`hashtextextended(${uid}, 0)`;

/**
 * Reads of the all-time snapshot. Ranks and values come from the snapshot; names, badges and chat links from the
 * user row (always current). Banned and opted-out users are filtered here, so they vanish from reads the moment the
 * flag is set, not only at the next rebuild.
 */
@Injectable()
export class AllTimeRepository {
  /** A page read, built once and prepared per connection: it is the busiest read of the board. */
  private readonly pageQuery;
  /** One user's entry (rank, profile ranks), likewise. */
  private readonly userQuery;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.pageQuery = new PreparedQuery(
      (p: BoardKey & { first: number; last: number }) =>
        this.entries(p)
          .where('e.position', '>', sql<number>`b.first_position::int8 - 1 + ${p.first}::int8`)
          .where('e.position', '<=', sql<number>`b.first_position::int8 - 1 + ${p.last}::int8`)
          .orderBy('e.position'),
      ['language', 'mode', 'mode2', 'first', 'last'],
    );
    this.userQuery = new PreparedQuery(
      (p: BoardKey & { uid: string }) =>
        this.entries(p)
          .where(sql<string>`hashtextextended(e.uid, 0)`, '=', uidHash(p.uid))
          .where('e.uid', '=', p.uid),
      ['language', 'mode', 'mode2', 'uid'],
    );
  }

  private entries(board: BoardKey) {
    return this.db
      .selectFrom('leaderboard_boards as b')
      .innerJoin('leaderboard_entries as e', 'e.board_id', 'b.id')
      .innerJoin('users as u', 'u.uid', 'e.uid')
      .select([
        sql<number>`e.position - b.first_position + 1`.as('rank'),
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
        'b.size as board_size',
      ])
      .where('b.language', '=', board.language)
      .where('b.mode', '=', board.mode)
      .where('b.mode2', '=', board.mode2)
      .where('u.banned', '=', sql.lit(false))
      .where('u.lb_opt_out', '=', sql.lit(false));
  }

  /**
   * Ranks first+1 .. first+size: a range read on (board_id, position), however large the board. The board size
   * comes with the rows, from the same statement, so a page and its count never straddle a rebuild's swap.
   */
  async page(board: BoardKey, first: number, size: number): Promise<{ count: number; rows: SnapshotRow[] }> {
    const { rows } = await this.db.executeQuery(this.pageQuery.with({ ...board, first, last: first + size }));
    return { count: rows[0]?.board_size ?? (await this.count(board)), rows };
  }

  /** Entries on the board when the snapshot was built. */
  async count(board: BoardKey): Promise<number> {
    const row = await this.db
      .selectFrom('leaderboard_boards')
      .select('size')
      .where('language', '=', board.language)
      .where('mode', '=', board.mode)
      .where('mode2', '=', board.mode2)
      .executeTakeFirst();
    return row?.size ?? 0;
  }

  /** The entries of the given users on a board, best first. */
  async ofUsers(board: BoardKey, uids: string[]): Promise<SnapshotRow[]> {
    if (uids.length === 0) return [];
    if (uids.length === 1) {
      const uid = uids[0] as string;
      return (await this.db.executeQuery(this.userQuery.with({ ...board, uid }))).rows;
    }
    return this.entries(board)
      .where(sql<string>`hashtextextended(e.uid, 0)`, 'in', uids.map(uidHash))
      .where('e.uid', 'in', uids)
      .orderBy('e.position')
      .execute();
  }

  /** Removes a user's entries at once (the next rebuild would drop them anyway); other ranks keep their numbers. */
  async remove(uid: string): Promise<void> {
    await this.db
      .deleteFrom('leaderboard_entries')
      .where(sql<string>`hashtextextended(uid, 0)`, '=', uidHash(uid))
      .where('uid', '=', uid)
      .execute();
  }
}
