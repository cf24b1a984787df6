import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import { LEADERBOARD_MODE_PAIRS } from './leaderboard-rules';

export interface SnapshotBuild {
  entries: number;
  boards: number;
}

const LIVE = 'leaderboard_entries';
const NEXT = 'leaderboard_entries_next';
const OLD = 'leaderboard_entries_old';
const INDEXES = ['rank_key', 'uid_key'] as const;
/** How long the swap may wait for readers before it gives up and retries (readers queue behind it meanwhile). */
const SWAP_LOCK_TIMEOUT = '3s';
const SWAP_ATTEMPTS = 5;

/**
 * Builds the all-time snapshot into a table of its own and swaps it in. The build is one set-based statement over
 * every board (a window function partitioned by board), so its cost grows with the number of personal bests, not
 * with the number of boards.
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
   * Ranks every qualifying personal best of every eligible user into the staging table and indexes it. Qualifying
   * (DECISIONS.md): punctuation and numbers off, difficulty normal, lazy mode off. Eligible (spec): not banned, not
   * opted out, `timeTyping` above `minTimeTyping` (null skips the time check, as in development). Order: wpm desc,
   * acc desc, older PB first; uid last so equal records rank the same way on every build.
   */
  async buildStaging(minTimeTyping: number | null, onStep: (step: string) => void): Promise<SnapshotBuild> {
    return this.db.transaction().execute(async (trx) => {
      // Sorting and indexing a few million rows in memory rather than in temporary files.
      await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
      await sql`SET LOCAL maintenance_work_mem = '512MB'`.execute(trx);
      await sql`DROP TABLE IF EXISTS ${sql.table(NEXT)}`.execute(trx);
      const timeCheck = minTimeTyping === null ? sql`TRUE` : sql`u.time_typing > ${minTimeTyping}`;
      // CREATE TABLE AS (unlike INSERT ... SELECT) may run its query with parallel workers.
      await sql`
        CREATE UNLOGGED TABLE ${sql.table(NEXT)} AS
        SELECT b.id AS board_id,
               (row_number() OVER (
                 PARTITION BY b.id ORDER BY p.wpm DESC, p.acc DESC, p.timestamp ASC, p.uid ASC
               ))::integer AS rank,
               p.uid, p.wpm, p.acc, p.raw, p.consistency, p.timestamp
        FROM personal_bests p
        JOIN leaderboard_boards b ON b.language = p.language AND b.mode = p.mode AND b.mode2 = p.mode2
        JOIN users u ON u.uid = p.uid
        WHERE p.difficulty = 'normal' AND NOT p.punctuation AND NOT p.numbers AND NOT p.lazy_mode AND p.wpm > 0
          AND NOT u.banned AND NOT u.lb_opt_out AND ${timeCheck}`.execute(trx);
      onStep('ranked');
      await sql`CREATE UNIQUE INDEX ${sql.id(`${NEXT}_rank_key`)} ON ${sql.table(NEXT)} (board_id, rank)`.execute(
        trx,
      );
      onStep('indexed ranks');
      await sql`CREATE UNIQUE INDEX ${sql.id(`${NEXT}_uid_key`)} ON ${sql.table(NEXT)} (uid, board_id)`.execute(
        trx,
      );
      onStep('indexed users');
      await sql`ANALYZE ${sql.table(NEXT)}`.execute(trx);
      // Board sizes from one index probe per board rather than a count over millions of rows.
      const sizes = await sql<SnapshotBuild>`
        SELECT count(top.rank)::int AS boards, coalesce(sum(top.rank), 0)::int AS entries
        FROM leaderboard_boards b
        CROSS JOIN LATERAL (
          SELECT n.rank FROM ${sql.table(NEXT)} n WHERE n.board_id = b.id ORDER BY n.rank DESC LIMIT 1
        ) top`.execute(trx);
      return sizes.rows[0] ?? { boards: 0, entries: 0 };
    });
  }

  /**
   * Makes the staging table the live snapshot in one short transaction: readers see the old board until the commit
   * and the new one after it. The old table is dropped afterwards, outside the lock.
   */
  async swap(): Promise<void> {
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
    const row = await this.db.selectFrom('leaderboard_entries').select('rank').limit(1).executeTakeFirst();
    return row === undefined;
  }
}

function isLockTimeout(e: unknown): boolean {
  // 55P03 lock_not_available
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '55P03';
}
