import { Inject, Injectable } from '@nestjs/common';
import { sql, type Compilable, type RawBuilder } from 'kysely';
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
  /** Entries on the board now. */
  board_size: number;
}

/** The index on snapshot uids is on their 64-bit hash; the uid itself is compared too. */
const uidHash = (uid: string) => sql<string>`hashtextextended(${uid}, 0)`;

/** An entry's key in board order (wpm desc, acc desc, older first, uid): the snapshot's order index, ascending. */
const keyOf = (e: string) => sql.raw(`(-${e}.wpm, -${e}.acc, ${e}.timestamp, ${e}.uid)`);
const MARK_KEY = sql.raw('(m.nwpm, m.nacc, m.timestamp, m.uid)');

/** What every read returns besides rank and values: the user's current name, badge and chat link, the board size. */
const USER_COLUMNS = sql`
  u.name, u.chat_id, u.chat_avatar, u.premium_expires_at,
  (SELECT (badge->>'id')::int FROM jsonb_array_elements(u.inventory_badges) badge
   WHERE badge->>'selected' = 'true' LIMIT 1) AS badge_id,
  b.size AS board_size`;

/**
 * Reads of the all-time snapshot. Entries are kept in board order, not numbered (live updates insert and remove
 * entries between rebuilds), and ranks come from the rank marks (migration 20261124160000_live_ranks): a mark lookup
 * plus at most about MARK_SPACING index entries, whatever the board's size. Names, badges and chat links come from
 * the user row (always current). Banned and opted-out users are filtered here, after the ranks are counted, so they
 * vanish from reads the moment the flag is set, before the removal closes the ranks.
 */
@Injectable()
export class AllTimeRepository {
  /** A page read, built once and prepared per connection: it is the busiest read of the board. */
  private readonly pageQuery;
  /** One user's entry (rank, profile ranks), likewise. */
  private readonly userQuery;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.pageQuery = new PreparedQuery(
      (p: BoardKey & { first: number; size: number }) => this.compilable(this.pageStatement(p)),
      ['language', 'mode', 'mode2', 'first', 'size'],
    );
    this.userQuery = new PreparedQuery(
      (p: BoardKey & { uid: string }) =>
        this.compilable(
          this.usersStatement(p, sql`hashtextextended(e.uid, 0) = ${uidHash(p.uid)} AND e.uid = ${p.uid}`),
        ),
      ['language', 'mode', 'mode2', 'uid'],
    );
  }

  /** A raw statement as PreparedQuery takes it (compiled with this database's dialect). */
  private compilable<R>(statement: RawBuilder<R>): Compilable<R> {
    return { compile: () => statement.compile(this.db) };
  }

  /**
   * Ranks first+1 .. first+size: from the last mark with at most `first` entries ahead of it, skip the remaining
   * `first - ahead` entries in the order index and take the page (marks with equal `ahead` have no entry between
   * them, so any of them gives the same page). Rank
   * numbers are given before the filter, so a hidden user's rank stays unused rather than shifting the page.
   */
  private pageStatement(p: BoardKey & { first: number; size: number }) {
    return sql<SnapshotRow>`
      SELECT x.rank, x.uid, x.wpm, x.acc, x.raw, x.consistency, x.timestamp, ${USER_COLUMNS}
      FROM leaderboard_boards b
      CROSS JOIN LATERAL (
        SELECT m.nwpm, m.nacc, m.timestamp, m.uid, m.ahead FROM leaderboard_rank_marks m
        WHERE m.board_id = b.id AND m.ahead <= ${p.first}::int
        ORDER BY m.ahead DESC
        LIMIT 1
      ) m
      CROSS JOIN LATERAL (
        SELECT (${p.first}::int8 + row_number() OVER (ORDER BY s.nwpm, s.nacc, s.timestamp, s.uid))::int AS rank, s.*
        FROM (
          SELECT -e.wpm AS nwpm, -e.acc AS nacc, e.uid, e.wpm, e.acc, e.raw, e.consistency, e.timestamp
          FROM leaderboard_entries e
          WHERE e.board_id = b.id AND ${keyOf('e')} >= ${MARK_KEY}
          ORDER BY -e.wpm, -e.acc, e.timestamp, e.uid
          OFFSET ${p.first}::int8 - m.ahead LIMIT ${p.size}::int8
        ) s
      ) x
      JOIN users u ON u.uid = x.uid
      WHERE b.language = ${p.language} AND b.mode = ${p.mode} AND b.mode2 = ${p.mode2}
        AND NOT u.banned AND NOT u.lb_opt_out
      ORDER BY x.rank`;
  }

  /**
   * Entries picked by `which` (a condition on `e`), best first, each ranked as the entries ahead of its last mark at
   * or below its key, plus those from that mark up to it.
   */
  private usersStatement(board: BoardKey, which: RawBuilder<unknown>) {
    return sql<SnapshotRow>`
      SELECT (m.ahead + r.before + 1)::int AS rank,
             e.uid, e.wpm, e.acc, e.raw, e.consistency, e.timestamp, ${USER_COLUMNS}
      FROM leaderboard_boards b
      JOIN leaderboard_entries e ON e.board_id = b.id
      JOIN users u ON u.uid = e.uid
      CROSS JOIN LATERAL (
        SELECT m.nwpm, m.nacc, m.timestamp, m.uid, m.ahead FROM leaderboard_rank_marks m
        WHERE m.board_id = b.id AND ${MARK_KEY} <= ${keyOf('e')}
        ORDER BY m.nwpm DESC, m.nacc DESC, m.timestamp DESC, m.uid DESC
        LIMIT 1
      ) m
      CROSS JOIN LATERAL (
        SELECT count(*) AS before FROM leaderboard_entries x
        WHERE x.board_id = b.id AND ${keyOf('x')} >= ${MARK_KEY} AND ${keyOf('x')} < ${keyOf('e')}
      ) r
      WHERE b.language = ${board.language} AND b.mode = ${board.mode} AND b.mode2 = ${board.mode2}
        AND ${which}
        AND NOT u.banned AND NOT u.lb_opt_out
      ORDER BY ${keyOf('e')}`;
  }

  /**
   * Ranks first+1 .. first+size, however large the board (see pageStatement). The board size comes with the rows,
   * from the same statement, so a page and its count never straddle a rebuild's swap or a live update.
   */
  async page(board: BoardKey, first: number, size: number): Promise<{ count: number; rows: SnapshotRow[] }> {
    const { rows } = await this.db.executeQuery(this.pageQuery.with({ ...board, first, size }));
    return { count: rows[0]?.board_size ?? (await this.count(board)), rows };
  }

  /** Entries on the board (kept exact by the live updates). */
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
    const which = sql`hashtextextended(e.uid, 0) IN (${sql.join(uids.map(uidHash))})
      AND e.uid IN (${sql.join(uids)})`;
    return (await this.usersStatement(board, which).execute(this.db)).rows;
  }
}
