import { Inject, Injectable } from '@nestjs/common';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { DB } from '../../infra/database/database.types';
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

/** A mode of the boards (time 15, words 25, ...): the unit the boards are split into shards by. */
type ModePair = (typeof LEADERBOARD_MODE_PAIRS)[number];

const LIVE = 'leaderboard_entries';
const NEXT = 'leaderboard_entries_next';
const OLD = 'leaderboard_entries_old';
/**
 * The snapshot is partitioned into this many shards (migration 20261122060000_leaderboard_shards), each built on a
 * connection of its own: one per core of the 2-core machine the rebuild target is set for. Shard k numbers its entries
 * from k * SHARD_SPAN + 1, which is also its partition's position range.
 */
export const SNAPSHOT_SHARDS = 2;
const SHARD_SPAN = 2 ** 30;
const shardTable = (generation: '' | 'next_' | 'old_', shard: number) =>
  `leaderboard_shard_${generation}${shard}`;
const SHARD_INDEXES = ['order_idx', 'uid_hash_idx'] as const;
const MARKS = 'leaderboard_rank_marks';
const MARKS_NEXT = 'leaderboard_rank_marks_next';
/**
 * Every MARK_SPACING-th entry of a shard's numbering is a rank mark (migration 20261124160000_live_ranks): a rank or a
 * page offset then counts at most about this many index entries from its mark. A power of two, so shard bases (2^30
 * apart) are multiples of it.
 */
export const MARK_SPACING = 128;
/** The sentinel mark's key: below every entry's ((-wpm), (-acc), timestamp, uid), with nothing ahead of it. */
const SENTINEL = sql`'-Infinity'::float8, '-Infinity'::float8, (-9223372036854775808)::int8, ''::text, 0`;
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
  (p.board_id::int8 << 48)
  + ((65535 - least(floor(p.wpm * 100 + 1e-6), 65535))::int8 << 32)
  + CASE WHEN abs(p.wpm * 100 - floor(p.wpm * 100 + 1e-6)) < 1e-6
      THEN (16383 - least(greatest(floor(p.acc * 100 + 1e-6), 0), 16383))::int8 << 18
      ELSE 0 END`;

/**
 * Builds the all-time snapshot into tables of its own and swaps them in. Each shard is one set-based statement over
 * all boards of its modes (one sort, one window function numbering its order), so the cost grows with the number of
 * qualifying personal bests, not with the number of boards; the shards run at the same time.
 */
@Injectable()
export class SnapshotRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * A board row for every language and board mode; ids stay stable, only missing rows are added. The personal bests
   * of a new board are copied into `leaderboard_bests` (whose trigger only maps to boards that exist).
   */
  async ensureBoards(languages: readonly string[]): Promise<void> {
    const modes = LEADERBOARD_MODE_PAIRS.map((p) => p.mode);
    const mode2s = LEADERBOARD_MODE_PAIRS.map((p) => p.mode2);
    const added = await sql<{ id: number }>`
      INSERT INTO leaderboard_boards (language, mode, mode2)
      SELECT l.language, m.mode, m.mode2
      FROM unnest(${[...languages]}::text[]) AS l(language)
      CROSS JOIN unnest(${modes}::text[], ${mode2s}::text[]) AS m(mode, mode2)
      WHERE NOT EXISTS (
        SELECT 1 FROM leaderboard_boards b WHERE b.language = l.language AND b.mode = m.mode AND b.mode2 = m.mode2
      )
      ON CONFLICT DO NOTHING
      RETURNING id`.execute(this.db);
    if (added.rows.length === 0) return;
    await copyLeaderboardBests(added.rows.map((r) => r.id)).execute(this.db);
    // The build right after reads the table this copy may have grown by millions of rows (the first build on a
    // database loaded without the trigger): plan it with statistics now rather than after autovacuum's next visit.
    await sql`ANALYZE leaderboard_bests`.execute(this.db);
  }

  /**
   * Numbers every qualifying personal best (`leaderboard_bests`: punctuation and numbers off, difficulty normal, lazy
   * mode off, docs/decisions/0020-all-time-leaderboards.md) of every eligible user into the staging tables and
   * indexes them. Eligible (spec): not banned, not opted out, `timeTyping` above `minTimeTyping` (null skips the time
   * check, as in development).
   */
  async buildStaging(minTimeTyping: number | null, onStep: (step: string) => void): Promise<StagedSnapshot> {
    const shards = await this.splitModes();
    const eligible = await this.eligibilityCondition(minTimeTyping);
    await this.db.transaction().execute(async (trx) => {
      await sql`DROP TABLE IF EXISTS ${sql.table(NEXT)}`.execute(trx);
      await sql`CREATE TABLE ${sql.table(NEXT)} (LIKE ${sql.table(LIVE)}) PARTITION BY RANGE (position)`.execute(
        trx,
      );
      for (let shard = 0; shard < SNAPSHOT_SHARDS; shard++) {
        const from = shard === 0 ? sql`MINVALUE` : sql.lit(shard * SHARD_SPAN);
        const to = shard === SNAPSHOT_SHARDS - 1 ? sql`MAXVALUE` : sql.lit((shard + 1) * SHARD_SPAN);
        await sql`
          CREATE UNLOGGED TABLE ${sql.table(shardTable('next_', shard))} PARTITION OF ${sql.table(NEXT)}
          FOR VALUES FROM (${from}) TO (${to})`.execute(trx);
      }
      await sql`DROP TABLE IF EXISTS ${sql.table(MARKS_NEXT)}`.execute(trx);
      await sql`CREATE UNLOGGED TABLE ${sql.table(MARKS_NEXT)} (LIKE ${sql.table(MARKS)})`.execute(trx);
    });
    await Promise.all(shards.map((modes, shard) => this.buildShard(shard, modes, eligible, onStep)));
    // Where each board starts and ends: its first and last entry in board order (a fresh build numbers entries in
    // that order), two probes of the order index per board, never a scan of the entries.
    const ranges = await sql<{ board_id: number; first: number; last: number }>`
      SELECT b.id AS board_id, first.position AS first, last.position AS last
      FROM leaderboard_boards b
      CROSS JOIN LATERAL (
        SELECT n.position FROM ${sql.table(NEXT)} n WHERE n.board_id = b.id
        ORDER BY -n.wpm, -n.acc, n.timestamp, n.uid LIMIT 1
      ) first
      CROSS JOIN LATERAL (
        SELECT n.position FROM ${sql.table(NEXT)} n WHERE n.board_id = b.id
        ORDER BY -n.wpm DESC, -n.acc DESC, n.timestamp DESC, n.uid DESC LIMIT 1
      ) last`.execute(this.db);
    const boards = ranges.rows.map((r) => ({
      boardId: r.board_id,
      firstPosition: r.first,
      size: r.last - r.first + 1,
    }));
    await this.finishMarks(boards);
    return { entries: boards.reduce((sum, b) => sum + b.size, 0), ranges: boards };
  }

  /**
   * The board modes of each shard, balanced by the entries they had in the last snapshot (largest first, each to the
   * lighter shard). Before the first snapshot every mode weighs the same, which spreads them evenly.
   */
  private async splitModes(): Promise<ModePair[][]> {
    const sizes = await this.db
      .selectFrom('leaderboard_boards')
      .select(['mode', 'mode2', (eb) => eb.fn.sum<string>('size').as('entries')])
      .groupBy(['mode', 'mode2'])
      .execute();
    const weight = (pair: ModePair) =>
      1 + Number(sizes.find((s) => s.mode === pair.mode && s.mode2 === pair.mode2)?.entries ?? 0);
    const shards = Array.from({ length: SNAPSHOT_SHARDS }, () => ({ modes: [] as ModePair[], weight: 0 }));
    for (const pair of [...LEADERBOARD_MODE_PAIRS].sort((a, b) => weight(b) - weight(a))) {
      const lightest = shards.reduce((min, s) => (s.weight < min.weight ? s : min));
      lightest.modes.push(pair);
      lightest.weight += weight(pair);
    }
    return shards.map((s) => s.modes);
  }

  /**
   * Eligibility as a condition on `p.uid`: a join against whichever set of users the planner estimates smaller, the
   * ineligible ones (an anti-join, where most users qualify) or the eligible ones (a semi-join, where the typing-time
   * threshold leaves few). The join hashes that set, so hashing the smaller one keeps it cheap and in memory.
   */
  private async eligibilityCondition(minTimeTyping: number | null): Promise<RawBuilder<unknown>> {
    const ineligible = ineligibleUser(minTimeTyping);
    const estimate = async (condition: RawBuilder<unknown>) => {
      const { rows } = await sql<{ 'QUERY PLAN': { Plan: { 'Plan Rows': number } }[] }>`
        EXPLAIN (FORMAT JSON) SELECT 1 FROM users u WHERE ${condition}`.execute(this.db);
      return rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
    };
    const [ineligibleUsers, eligibleUsers] = await Promise.all([
      estimate(ineligible),
      estimate(sql`NOT (${ineligible})`),
    ]);
    return ineligibleUsers <= eligibleUsers
      ? sql`NOT EXISTS (SELECT 1 FROM users u WHERE u.uid = p.uid AND (${ineligible}))`
      : sql`EXISTS (SELECT 1 FROM users u WHERE u.uid = p.uid AND NOT (${ineligible}))`;
  }

  /**
   * Ranks, writes and indexes one shard, on one connection and in one process (no parallel workers: the other shard
   * has the other core).
   */
  private async buildShard(
    shard: number,
    modes: ModePair[],
    eligible: RawBuilder<unknown>,
    onStep: (step: string) => void,
  ): Promise<void> {
    const table = shardTable('next_', shard);
    // The shard's boards as a constant array: the scan of the personal bests then filters them with a hashed lookup
    // instead of joining every row to the boards (a tenth of a second less on the 1M build). A literal, not a
    // parameter, so the lookup is hashed whichever plan runs it (a generic plan would search the array linearly).
    const boardIds =
      modes.length === 0
        ? []
        : (
            await this.db
              .selectFrom('leaderboard_boards')
              .select('id')
              .where((eb) =>
                eb.or(modes.map((m) => eb.and([eb('mode', '=', m.mode), eb('mode2', '=', m.mode2)]))),
              )
              .execute()
          ).map((b) => b.id);
    const ofShard =
      boardIds.length === 0
        ? sql`FALSE`
        : sql`p.board_id = ANY(ARRAY[${sql.join(boardIds.map((id) => sql.lit(Math.trunc(id))))}]::int[])`;
    await this.db.transaction().execute(async (trx) => {
      // Sorting a million or two rows in memory rather than in temporary files.
      await sql`SET LOCAL work_mem = '256MB'`.execute(trx);
      await sql`SET LOCAL maintenance_work_mem = '256MB'`.execute(trx);
      await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(trx);
      await sql`SET LOCAL max_parallel_maintenance_workers = 0`.execute(trx);
      // Millions of rows: a nested loop is never the right join here, whatever the estimates say.
      await sql`SET LOCAL enable_nestloop = off`.execute(trx);
      await sql`
        INSERT INTO ${sql.table(table)} (board_id, position, uid, wpm, acc, raw, consistency, timestamp)
        SELECT board_id,
               (${sql.lit(shard * SHARD_SPAN)}
                 + row_number() OVER (ORDER BY sort_key, wpm DESC, acc DESC, timestamp ASC, uid ASC))::integer,
               uid, wpm, acc, raw, consistency, timestamp
        FROM (
          SELECT p.board_id, ${SORT_KEY} AS sort_key,
                 p.uid, p.wpm, p.acc, p.raw, p.consistency, p.timestamp
          FROM leaderboard_bests p
          WHERE ${ofShard}
            AND p.wpm > 0
            AND ${eligible}
        ) qualifying`.execute(trx);
      onStep(`shard ${shard + 1} ranked`);
      // The board order, ascending on negated values so that row comparisons on it are index conditions. Rows were
      // written in this order, so building it is a pass over presorted input.
      await sql`
        CREATE INDEX ${sql.id(`${table}_order_idx`)}
        ON ${sql.table(table)} (board_id, (-wpm), (-acc), timestamp, uid)`.execute(trx);
      // Rank marks at every MARK_SPACING-th position of the shard's numbering; `ahead` holds the position until
      // finishMarks knows where each board starts.
      await sql`
        INSERT INTO ${sql.table(MARKS_NEXT)} (board_id, nwpm, nacc, timestamp, uid, ahead)
        SELECT board_id, -wpm, -acc, timestamp, uid, position FROM ${sql.table(table)}
        WHERE position % ${sql.lit(MARK_SPACING)} = 0`.execute(trx);
      await sql`
        CREATE INDEX ${sql.id(`${table}_uid_hash_idx`)} ON ${sql.table(table)} (hashtextextended(uid, 0))`.execute(
        trx,
      );
      // Planner statistics for the new table; a small sample is plenty for its two index lookups.
      await sql`SET LOCAL default_statistics_target = 10`.execute(trx);
      await sql`ANALYZE ${sql.table(table)}`.execute(trx);
    });
    onStep(`shard ${shard + 1} indexed`);
  }

  /**
   * Makes the staging tables the live snapshot, with the boards' positions, in one short transaction: readers see
   * the old snapshot until the commit and the new one after it. The old tables are dropped afterwards, outside it.
   */
  async swap(ranges: BoardRange[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.db.transaction().execute(async (trx) => {
          await sql`SET LOCAL lock_timeout = ${sql.lit(SWAP_LOCK_TIMEOUT)}`.execute(trx);
          // The marks are replaced row by row, not renamed like the entries: readers lock the two tables in
          // different orders (a page finds its mark first, a rank its entry), and renaming both would deadlock
          // with them. Row locks do not conflict with reads, and this is done before the renames take theirs.
          await sql`DELETE FROM ${sql.table(MARKS)}`.execute(trx);
          await sql`INSERT INTO ${sql.table(MARKS)} SELECT * FROM ${sql.table(MARKS_NEXT)}`.execute(trx);
          await sql`DROP TABLE IF EXISTS ${sql.table(OLD)}`.execute(trx);
          await sql`ALTER TABLE ${sql.table(LIVE)} RENAME TO ${sql.id(OLD)}`.execute(trx);
          await sql`ALTER TABLE ${sql.table(NEXT)} RENAME TO ${sql.id(LIVE)}`.execute(trx);
          for (let shard = 0; shard < SNAPSHOT_SHARDS; shard++) {
            await this.renameShard(trx, shardTable('', shard), shardTable('old_', shard));
            await this.renameShard(trx, shardTable('next_', shard), shardTable('', shard));
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
    await sql`DROP TABLE IF EXISTS ${sql.table(MARKS_NEXT)}`.execute(this.db);
    // Statistics for the marks just copied in: without them the planner takes the (board_id, ahead) index for a
    // rank's mark lookup and sorts every mark of the board (thousands on a 1M board) instead of reading one.
    await sql`ANALYZE ${sql.table(MARKS)}`.execute(this.db);
  }

  /**
   * Turns the staged marks' positions into entries ahead of them on their board and adds every board's sentinel (so a
   * read always finds a mark at or below any key). The swap copies them into the live marks table.
   */
  private async finishMarks(boards: BoardRange[]): Promise<void> {
    await sql`
      UPDATE ${sql.table(MARKS_NEXT)} m SET ahead = m.ahead - r.first_position
      FROM unnest(${boards.map((r) => r.boardId)}::int[], ${boards.map((r) => r.firstPosition)}::int[])
        AS r(board_id, first_position)
      WHERE m.board_id = r.board_id`.execute(this.db);
    await sql`
      INSERT INTO ${sql.table(MARKS_NEXT)} (board_id, nwpm, nacc, timestamp, uid, ahead)
      SELECT id, ${SENTINEL} FROM leaderboard_boards`.execute(this.db);
  }

  /** Renames a shard table and its indexes (index names are unique per schema, so they follow the table's). */
  private async renameShard(trx: Transaction<DB>, from: string, to: string): Promise<void> {
    await sql`ALTER TABLE ${sql.table(from)} RENAME TO ${sql.id(to)}`.execute(trx);
    for (const index of SHARD_INDEXES) {
      await sql`ALTER INDEX ${sql.id(`${from}_${index}`)} RENAME TO ${sql.id(`${to}_${index}`)}`.execute(trx);
    }
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

/**
 * Spec: a user is off the all-time boards when banned, opted out, or with `timeTyping` not above `minTimeTyping`
 * (null skips the time check, as in development). A condition on `u`, a `users` row; the rebuild and the live
 * updates both use it, so an entry never depends on which of them wrote it.
 */
export function ineligibleUser(minTimeTyping: number | null): RawBuilder<unknown> {
  return minTimeTyping === null
    ? sql`u.banned OR u.lb_opt_out`
    : sql`u.banned OR u.lb_opt_out OR u.time_typing <= ${minTimeTyping}`;
}

function isLockTimeout(e: unknown): boolean {
  // 55P03 lock_not_available
  return typeof e === 'object' && e !== null && (e as { code?: string }).code === '55P03';
}

/**
 * Copies the qualifying personal bests of the given boards (all boards when omitted) into `leaderboard_bests`, for
 * boards created after their personal bests and for writers that bypassed the trigger (the benchmark seeder). Rows
 * already there are kept: the trigger wrote them from the same or a newer personal best. A personal best held for
 * review is left out, as the trigger leaves it out.
 */
export function copyLeaderboardBests(boardIds?: number[]): RawBuilder<unknown> {
  return sql`
    INSERT INTO leaderboard_bests (uid, board_id, wpm, acc, raw, consistency, timestamp)
    SELECT p.uid, b.id, p.wpm, p.acc, p.raw, p.consistency, p.timestamp
    FROM personal_bests p
    JOIN leaderboard_boards b ON b.language = p.language AND b.mode = p.mode AND b.mode2 = p.mode2
    WHERE p.difficulty = 'normal' AND NOT p.punctuation AND NOT p.numbers AND NOT p.lazy_mode
      -- A best held for review is not on the boards (the user's lower results are not copied: see docs/security.md).
      AND p.held_result_id IS NULL
      ${boardIds === undefined ? sql`` : sql`AND b.id = ANY(${boardIds}::int[])`}
    -- In primary-key order, so each key lands next to the one before in the index instead of on a random page: for
    -- 3.2 million rows 11 s instead of 38 s, 66,000 pages dirtied instead of 486,000 (EXPLAIN ANALYZE, BUFFERS).
    ORDER BY p.uid, b.id
    ON CONFLICT (uid, board_id) DO NOTHING`;
}
