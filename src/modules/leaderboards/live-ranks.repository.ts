import { Inject, Injectable } from '@nestjs/common';
import { sql, type RawBuilder } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import { ineligibleUser } from './snapshot.repository';

export interface AppliedChanges {
  /** Rows taken off the queue (one pair may be queued many times: a user with several new bests). */
  taken: number;
  /** Distinct (user, board) pairs among them (or of the user being removed). */
  pairs: number;
  added: number;
  removed: number;
}

/** A key of the board order: ((-wpm), (-acc), timestamp, uid), ascending. */
const KEY = sql.raw('nwpm, nacc, timestamp, uid');

/**
 * The live updates of the all-time snapshot between rebuilds (migration 20261124160000_live_ranks). Each applies the
 * *current* state of some (user, board) pairs: the user's entry on that board is deleted and, when their personal
 * best qualifies and they are eligible, written again with the current values; the rank marks after each changed key
 * and the board sizes move by what was added and removed before them. Applying a pair twice changes nothing, so a
 * change the rebuild already saw may be applied again after its swap. Callers hold the rebuild's lock: a rebuild
 * copies and swaps the tables these statements write.
 */
@Injectable()
export class LiveRanksRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Takes up to `batch` queued changes, oldest first, and applies them; in one statement, so all or nothing. */
  applyQueued(minTimeTyping: number | null, batch: number): Promise<AppliedChanges> {
    return this.apply(
      sql`
        DELETE FROM leaderboard_best_changes
        WHERE id IN (SELECT id FROM leaderboard_best_changes ORDER BY id LIMIT ${batch})
        RETURNING uid, board_id`,
      minTimeTyping,
    );
  }

  /**
   * Queues every board the user is on or has a best for, committed before the caller takes the lock: a rebuild that
   * read the user's old state and swaps before `applyUser` runs is corrected by the job from these rows. Inside a
   * submission's transaction (`executor`) when the user just became eligible.
   */
  async enqueueUser(uid: string, executor: Executor = this.db): Promise<void> {
    await sql`
      INSERT INTO leaderboard_best_changes (uid, board_id)
      ${this.pairsOfUser(uid)}`.execute(executor);
  }

  /** Applies the current state of every board of one user (a ban, opt-out, reset or deletion). */
  applyUser(uid: string, minTimeTyping: number | null): Promise<AppliedChanges> {
    return this.apply(this.pairsOfUser(uid), minTimeTyping);
  }

  private pairsOfUser(uid: string): RawBuilder<unknown> {
    return sql`
      SELECT e.uid, e.board_id FROM leaderboard_entries e
      WHERE hashtextextended(e.uid, 0) = hashtextextended(${uid}, 0) AND e.uid = ${uid}
      UNION
      SELECT lb.uid, lb.board_id FROM leaderboard_bests lb WHERE lb.uid = ${uid}`;
  }

  /**
   * One statement of data-modifying CTEs (they all see the same snapshot and commit together):
   * - `removed`/`added`: the pairs' entries out, their current qualifying bests of eligible users in. A new entry
   *   takes its board's first position, which only routes it to the board's partition.
   * - `shifts`: for every mark of a touched board, the number added minus removed strictly before its key: a running
   *   sum over the marks and the changed keys in board order (at an equal key the mark comes first: an entry is not
   *   ahead of itself).
   * - A board without marks (created by a rebuild that then failed before its swap) gets its sentinel first.
   */
  private async apply(pairs: RawBuilder<unknown>, minTimeTyping: number | null): Promise<AppliedChanges> {
    const { rows } = await sql<{ taken: string; pairs: string; added: string; removed: string }>`
      WITH taken AS (${pairs}),
      pairs AS (SELECT DISTINCT uid, board_id FROM taken),
      removed AS (
        DELETE FROM leaderboard_entries e USING pairs p
        WHERE e.board_id = p.board_id
          AND hashtextextended(e.uid, 0) = hashtextextended(p.uid, 0) AND e.uid = p.uid
        RETURNING e.board_id, -e.wpm AS nwpm, -e.acc AS nacc, e.timestamp, e.uid
      ),
      added AS (
        INSERT INTO leaderboard_entries (board_id, position, uid, wpm, acc, raw, consistency, timestamp)
        SELECT lb.board_id, b.first_position, lb.uid, lb.wpm, lb.acc, lb.raw, lb.consistency, lb.timestamp
        FROM pairs p
        JOIN leaderboard_bests lb ON lb.uid = p.uid AND lb.board_id = p.board_id
        JOIN leaderboard_boards b ON b.id = lb.board_id
        WHERE lb.wpm > 0
          AND EXISTS (SELECT 1 FROM users u WHERE u.uid = lb.uid AND NOT (${ineligibleUser(minTimeTyping)}))
        RETURNING board_id, -wpm AS nwpm, -acc AS nacc, timestamp, uid
      ),
      deltas AS (
        SELECT board_id, ${KEY}, 1 AS delta FROM added
        UNION ALL
        SELECT board_id, ${KEY}, -1 AS delta FROM removed
      ),
      sized AS (
        UPDATE leaderboard_boards b SET size = b.size + d.n
        FROM (SELECT board_id, sum(delta)::int AS n FROM deltas GROUP BY board_id) d
        WHERE b.id = d.board_id AND d.n <> 0
        RETURNING b.id
      ),
      sentinels AS (
        INSERT INTO leaderboard_rank_marks (board_id, nwpm, nacc, timestamp, uid, ahead)
        SELECT DISTINCT board_id, '-Infinity'::float8, '-Infinity'::float8, (-9223372036854775808)::int8, '', 0
        FROM added
        ON CONFLICT DO NOTHING
        RETURNING board_id
      ),
      shifts AS (
        SELECT board_id, ${KEY}, shift FROM (
          SELECT board_id, ${KEY}, is_mark,
                 sum(delta) OVER (
                   PARTITION BY board_id ORDER BY ${KEY}, is_mark DESC ROWS UNBOUNDED PRECEDING
                 ) AS shift
          FROM (
            SELECT m.board_id, m.nwpm, m.nacc, m.timestamp, m.uid, 0 AS delta, true AS is_mark
            FROM leaderboard_rank_marks m
            WHERE m.board_id IN (SELECT board_id FROM deltas)
            UNION ALL
            SELECT board_id, ${KEY}, delta, false AS is_mark FROM deltas
          ) points
        ) running
        WHERE is_mark AND shift <> 0
      ),
      shifted AS (
        UPDATE leaderboard_rank_marks m SET ahead = m.ahead + s.shift::int
        FROM shifts s
        WHERE m.board_id = s.board_id AND m.nwpm = s.nwpm AND m.nacc = s.nacc AND m.timestamp = s.timestamp
          AND m.uid = s.uid
        RETURNING m.board_id
      )
      SELECT (SELECT count(*) FROM taken) AS taken, (SELECT count(*) FROM pairs) AS pairs,
             (SELECT count(*) FROM added) AS added,
             (SELECT count(*) FROM removed) AS removed`.execute(this.db);
    const row = rows[0];
    return {
      taken: Number(row?.taken ?? 0),
      pairs: Number(row?.pairs ?? 0),
      added: Number(row?.added ?? 0),
      removed: Number(row?.removed ?? 0),
    };
  }
}
