import { Inject, Injectable } from '@nestjs/common';
import { sql, type RawBuilder } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import { LEADERBOARD_MODE_PAIRS } from './leaderboard-rules';

export interface BoardRange {
  boardId: number;
  firstPosition: number;
  size: number;
}

export interface StagedSnapshot {
  entries: number;
  ranges: BoardRange[];
}

const LIVE = 'leaderboard_entries';
const NEXT = 'leaderboard_entries_next';
const OLD = 'leaderboard_entries_old';
const INDEXES = ['position_key', 'uid_hash_idx'] as const;
/** How long the swap may wait for running reads before it gives up and retries (new reads queue behind it). */
const SWAP_LOCK_TIMEOUT = '2s';
const SWAP_ATTEMPTS = 5;

/**
 * One 64-bit sort key per entry, ascending in the board order: board id (16 bits), wpm descending to 0.01 (16 bits),
 * then accuracy descending to 0.01 (14 bits) — the accuracy part only when wpm has at most two decimals, so the key
 * never contradicts the exact order; the full order (wpm desc, acc desc, older PB first, uid) breaks what is left.
 * With a key that is nearly unique, the sort compares integers held in its array instead of fetching every row from
 * memory: several times faster on millions of entries than sorting by the board id and then the values.
 */
const SORT_KEY = sql`
  (b.id::int8 << 48)
  + ((65535 - least(floor(p.wpm * 100 + 1e-6), 65535))::int8 << 32)
  + CASE WHEN abs(p.wpm * 100 - floor(p.wpm * 100 + 1e-6)) < 1e-6
      THEN (16383 - least(greatest(floor(p.acc * 100 + 1e-6), 0), 16383))::int8 << 18
      ELSE 0 END`;

/**
 * Builds the all-time snapshot into a table of its own and swaps it in. The build is one set-based statement over
 * every board (one sort, one window function numbering the global order), so its cost grows with the number of
 * qualifying personal bests, not with the number of boards.
 */
@Injectable()
export class SnapshotRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** A board row for every language and board mode; ids stay stable, only missing rows are added. */
  async ensureBoards(languages: readonly string[]): Promise<void> {
    const modes = LEADERBOARD_MODE_PAIRS.map((p) => p.mode);
    const mode2s = LEADERBOARD_MODE_PAIRS.map((p) => p.mode2);
    await sql`
      INSERT INTO leaderboard_boards (language, mode, mode2)
      SELECT l.language, m.mode, m.mode2
      FROM unnest(${[...languages]}::text[]) AS l(language)
      CROSS JOIN unnest(${modes}::text[], ${mode2s}::text[]) AS m(mode, mode2)
      WHERE NOT EXISTS (
        SELECT 1 FROM leaderboard_boards b WHERE b.language = l.language AND b.mode = m.mode AND b.mode2 = m.mode2
      )
      ON CONFLICT DO NOTHING`.execute(this.db);
  }

  /**
   * Numbers every qualifying personal best of every eligible user into the staging table and indexes it.
   * Qualifying (DECISIONS.md): punctuation and numbers off, difficulty normal, lazy mode off. Eligible (spec): not
   * banned, not opted out, `timeTyping` above `minTimeTyping` (null skips the time check, as in development).
   */
  async buildStaging(minTimeTyping: number | null, onStep: (step: string) => void): Promise<StagedSnapshot> {
    await this.db.transaction().execute(async (trx) => {
      // Sorting a few million rows in memory rather than in temporary files.
      await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
      await sql`DROP TABLE IF EXISTS ${sql.table(NEXT)}`.execute(trx);
      const timeCheck = minTimeTyping === null ? sql`TRUE` : sql`u.time_typing > ${minTimeTyping}`;
      // CREATE TABLE AS (unlike INSERT ... SELECT) may run its query with parallel workers.
      await sql`
        CREATE UNLOGGED TABLE ${sql.table(NEXT)} AS
        SELECT board_id,
               (row_number() OVER (ORDER BY sort_key, wpm DESC, acc DESC, timestamp ASC, uid ASC))::integer
                 AS position,
               uid, wpm, acc, raw, consistency, timestamp
        FROM (
          SELECT b.id AS board_id, ${SORT_KEY} AS sort_key,
                 p.uid, p.wpm, p.acc, p.raw, p.consistency, p.timestamp
          FROM personal_bests p
          JOIN leaderboard_boards b ON b.language = p.language AND b.mode = p.mode AND b.mode2 = p.mode2
          JOIN users u ON u.uid = p.uid
          WHERE p.difficulty = 'normal' AND NOT p.punctuation AND NOT p.numbers AND NOT p.lazy_mode
            AND p.wpm > 0 AND NOT u.banned AND NOT u.lb_opt_out AND ${timeCheck}
        ) qualifying`.execute(trx);
    });
    onStep('ranked');
    // Both indexes at once, each on a connection of its own (the staging table is committed, still unseen by
    // readers): one mostly copies presorted positions, the other sorts hashes, so together they take less time.
    const positions = sql`CREATE UNIQUE INDEX ${sql.id(`${NEXT}_position_key`)} ON ${sql.table(NEXT)} (board_id, position)`;
    const uids = sql`CREATE INDEX ${sql.id(`${NEXT}_uid_hash_idx`)} ON ${sql.table(NEXT)} (hashtextextended(uid, 0))`;
    await Promise.all([
      this.indexStaging(positions).then(() => onStep('indexed ranks')),
      this.indexStaging(uids).then(() => onStep('indexed users')),
    ]);
    return this.db.transaction().execute(async (trx) => {
      // Planner statistics for the new table; a small sample is plenty for its two index lookups.
      await sql`SET LOCAL default_statistics_target = 10`.execute(trx);
      await sql`ANALYZE ${sql.table(NEXT)}`.execute(trx);
      // Where each board starts and ends: two index probes per board, never a scan of the entries.
      const ranges = await sql<{ board_id: number; first: number; last: number }>`
        SELECT b.id AS board_id, first.position AS first, last.position AS last
        FROM leaderboard_boards b
        CROSS JOIN LATERAL (
          SELECT n.position FROM ${sql.table(NEXT)} n WHERE n.board_id = b.id ORDER BY n.position LIMIT 1
        ) first
        CROSS JOIN LATERAL (
          SELECT n.position FROM ${sql.table(NEXT)} n WHERE n.board_id = b.id ORDER BY n.position DESC LIMIT 1
        ) last`.execute(trx);
      const boards = ranges.rows.map((r) => ({
        boardId: r.board_id,
        firstPosition: r.first,
        size: r.last - r.first + 1,
      }));
      return { entries: boards.reduce((sum, b) => sum + b.size, 0), ranges: boards };
    });
  }

  private async indexStaging(statement: RawBuilder<unknown>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL maintenance_work_mem = '512MB'`.execute(trx);
      await statement.execute(trx);
    });
  }

  /**
   * Makes the staging table the live snapshot, with the boards' positions, in one short transaction: readers see
   * the old snapshot until the commit and the new one after it. The old table is dropped afterwards, outside it.
   */
  async swap(ranges: BoardRange[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.db.transaction().execute(async (trx) => {
          await sql`SET LOCAL lock_timeout = ${sql.lit(SWAP_LOCK_TIMEOUT)}`.execute(trx);
          await sql`DROP TABLE IF EXISTS ${sql.table(OLD)}`.execute(trx);
          await sql`ALTER TABLE ${sql.table(LIVE)} RENAME TO ${sql.id(OLD)}`.execute(trx);
          for (const index of INDEXES) {
            await sql`ALTER INDEX ${sql.id(`${LIVE}_${index}`)} RENAME TO ${sql.id(`${OLD}_${index}`)}`.execute(
              trx,
            );
          }
          await sql`ALTER TABLE ${sql.table(NEXT)} RENAME TO ${sql.id(LIVE)}`.execute(trx);
          for (const index of INDEXES) {
            await sql`ALTER INDEX ${sql.id(`${NEXT}_${index}`)} RENAME TO ${sql.id(`${LIVE}_${index}`)}`.execute(
              trx,
            );
          }
          await sql`
            UPDATE leaderboard_boards b
            SET first_position = coalesce(r.first_position, 0), size = coalesce(r.size, 0)
            FROM leaderboard_boards b2
            LEFT JOIN unnest(
              ${ranges.map((r) => r.boardId)}::int[],
              ${ranges.map((r) => r.firstPosition)}::int[],
              ${ranges.map((r) => r.size)}::int[]
            ) AS r(board_id, first_position, size) ON r.board_id = b2.id
            WHERE b.id = b2.id
              AND (b.first_position, b.size) IS DISTINCT FROM (coalesce(r.first_position, 0), coalesce(r.size, 0))`.execute(
            trx,
          );
        });
        break;
      } catch (e) {
        if (!isLockTimeout(e) || attempt >= SWAP_ATTEMPTS) throw e;
      }
    }
    await sql`DROP TABLE IF EXISTS ${sql.table(OLD)}`.execute(this.db);
  }

  /** Whether the live snapshot has no rows (a fresh database, or an unlogged table emptied by crash recovery). */
  async isEmpty(): Promise<boolean> {
    const row = await this.db
      .selectFrom('leaderboard_entries')
      .select('position')
      .limit(1)
      .executeTakeFirst();
    return row === undefined;
  }
}

function isLockTimeout(e: unknown): boolean {
  // 55P03 lock_not_available
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '55P03';
}
