import { Kysely, sql } from 'kysely';

/**
 * Live all-time ranks: a new personal best reaches its board within a job tick instead of at the next rebuild.
 * - `leaderboard_best_changes`: a queue of (uid, board) pairs whose `leaderboard_bests` row changed. The trigger
 *   function that keeps `leaderboard_bests` appends to it in the same transaction as the personal best, so no change
 *   is lost; the live-update job consumes it (DELETE ... RETURNING) and applies the current state of each pair.
 * - The snapshot is read in board order (wpm desc, acc desc, older first, uid) instead of by position: an entry can
 *   then be inserted or removed without renumbering the entries below it. The shards get an index on that order,
 *   ascending on negated values so that row comparisons `((-wpm), (-acc), timestamp, uid) < (...)` can use it; the
 *   (board_id, position) index goes, as positions are no longer unique (a live entry takes its board's first
 *   position, which only routes it to the board's partition).
 * - `leaderboard_rank_marks`: every K-th entry's key and the number of entries of its board strictly before it
 *   (`ahead`), built with the snapshot and kept exact by the live updates, plus one sentinel per board below every
 *   key (ahead 0). A rank or a page offset is then a mark lookup plus at most about K index entries, whatever the
 *   board's size. Unlogged like the entries: a crash empties both, and the start-up rebuild fills both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE leaderboard_best_changes (
      id       bigserial PRIMARY KEY,
      uid      text NOT NULL,
      board_id integer NOT NULL
    )`.execute(db);

  await sql`
    CREATE OR REPLACE FUNCTION leaderboard_bests_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD.uid, OLD.mode, OLD.mode2, OLD.language, OLD.difficulty,
          OLD.punctuation, OLD.numbers, OLD.lazy_mode) IS DISTINCT FROM (NEW.uid, NEW.mode, NEW.mode2,
          NEW.language, NEW.difficulty, NEW.punctuation, NEW.numbers, NEW.lazy_mode)) THEN
        WITH removed AS (
          DELETE FROM leaderboard_bests lb
          USING leaderboard_boards b
          WHERE lb.uid = OLD.uid AND lb.board_id = b.id
            AND b.language = OLD.language AND b.mode = OLD.mode AND b.mode2 = OLD.mode2
          RETURNING lb.uid, lb.board_id
        )
        INSERT INTO leaderboard_best_changes (uid, board_id) SELECT uid, board_id FROM removed;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.difficulty = 'normal' AND NOT NEW.punctuation AND NOT NEW.numbers
          AND NOT NEW.lazy_mode THEN
        WITH written AS (
          INSERT INTO leaderboard_bests (uid, board_id, wpm, acc, raw, consistency, timestamp)
          SELECT NEW.uid, b.id, NEW.wpm, NEW.acc, NEW.raw, NEW.consistency, NEW.timestamp
          FROM leaderboard_boards b
          WHERE b.language = NEW.language AND b.mode = NEW.mode AND b.mode2 = NEW.mode2
          ON CONFLICT (uid, board_id) DO UPDATE
            SET wpm = EXCLUDED.wpm, acc = EXCLUDED.acc, raw = EXCLUDED.raw, consistency = EXCLUDED.consistency,
                timestamp = EXCLUDED.timestamp
          RETURNING uid, board_id
        )
        INSERT INTO leaderboard_best_changes (uid, board_id) SELECT uid, board_id FROM written;
      END IF;
      RETURN NULL;
    END
    $$`.execute(db);

  for (const shard of [0, 1]) {
    const table = `leaderboard_shard_${shard}`;
    await sql`DROP INDEX ${sql.id(`${table}_position_key`)}`.execute(db);
    await sql`
      CREATE INDEX ${sql.id(`${table}_order_idx`)}
      ON ${sql.table(table)} (board_id, (-wpm), (-acc), timestamp, uid)`.execute(db);
  }

  await sql`
    CREATE UNLOGGED TABLE leaderboard_rank_marks (
      board_id  integer NOT NULL,
      nwpm      double precision NOT NULL,
      nacc      double precision NOT NULL,
      timestamp bigint NOT NULL,
      uid       text NOT NULL,
      ahead     integer NOT NULL
    )`.execute(db);
  await sql`
    CREATE UNIQUE INDEX leaderboard_rank_marks_key ON leaderboard_rank_marks (board_id, nwpm, nacc, timestamp, uid)`.execute(
    db,
  );
  // Only (board_id, ahead): with the key columns in it too, the planner would take it for a rank's mark lookup
  // (a key condition) and sort every mark of the board instead of reading one from the key index.
  await sql`CREATE INDEX leaderboard_rank_marks_ahead_idx ON leaderboard_rank_marks (board_id, ahead)`.execute(
    db,
  );
  // The snapshot was numbered without marks: empty it, so the start-up rebuild builds both (derived data).
  await sql`TRUNCATE leaderboard_entries`.execute(db);
  await sql`UPDATE leaderboard_boards SET first_position = 0, size = 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE leaderboard_rank_marks`.execute(db);
  await sql`TRUNCATE leaderboard_entries`.execute(db);
  await sql`UPDATE leaderboard_boards SET first_position = 0, size = 0`.execute(db);
  for (const shard of [0, 1]) {
    const table = `leaderboard_shard_${shard}`;
    await sql`DROP INDEX ${sql.id(`${table}_order_idx`)}`.execute(db);
    await sql`CREATE UNIQUE INDEX ${sql.id(`${table}_position_key`)} ON ${sql.table(table)} (board_id, position)`.execute(
      db,
    );
  }
  await sql`
    CREATE OR REPLACE FUNCTION leaderboard_bests_sync() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND (OLD.uid, OLD.mode, OLD.mode2, OLD.language, OLD.difficulty,
          OLD.punctuation, OLD.numbers, OLD.lazy_mode) IS DISTINCT FROM (NEW.uid, NEW.mode, NEW.mode2,
          NEW.language, NEW.difficulty, NEW.punctuation, NEW.numbers, NEW.lazy_mode)) THEN
        DELETE FROM leaderboard_bests lb
        USING leaderboard_boards b
        WHERE lb.uid = OLD.uid AND lb.board_id = b.id
          AND b.language = OLD.language AND b.mode = OLD.mode AND b.mode2 = OLD.mode2;
      END IF;
      IF TG_OP <> 'DELETE' AND NEW.difficulty = 'normal' AND NOT NEW.punctuation AND NOT NEW.numbers
          AND NOT NEW.lazy_mode THEN
        INSERT INTO leaderboard_bests (uid, board_id, wpm, acc, raw, consistency, timestamp)
        SELECT NEW.uid, b.id, NEW.wpm, NEW.acc, NEW.raw, NEW.consistency, NEW.timestamp
        FROM leaderboard_boards b
        WHERE b.language = NEW.language AND b.mode = NEW.mode AND b.mode2 = NEW.mode2
        ON CONFLICT (uid, board_id) DO UPDATE
          SET wpm = EXCLUDED.wpm, acc = EXCLUDED.acc, raw = EXCLUDED.raw, consistency = EXCLUDED.consistency,
              timestamp = EXCLUDED.timestamp;
      END IF;
      RETURN NULL;
    END
    $$`.execute(db);
  await sql`DROP TABLE leaderboard_best_changes`.execute(db);
}
