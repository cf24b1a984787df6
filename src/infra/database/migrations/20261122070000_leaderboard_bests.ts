import { Kysely, sql } from 'kysely';

/**
 * `leaderboard_bests`: the personal bests that count for an all-time board, one row per (user, board), with the
 * board's id instead of its language and modes. A trigger on `personal_bests` keeps it in step in the same
 * transaction as every write there (results, resets, account deletion, operator SQL), so the snapshot rebuild reads
 * this narrow table with nothing to filter or join to find boards; that roughly halves the rebuild's reading.
 * - Qualifying (docs/decisions/0020-all-time-leaderboards.md): difficulty normal, punctuation, numbers and lazy mode
 *   off, on a board that exists. Boards are added by the rebuild (`ensureBoards`), which then copies the personal
 *   bests of each new board here.
 * - No foreign keys: boards are never deleted, and a user's rows go with their personal bests (the delete trigger
 *   runs for cascaded deletes too); a key check on every write would only cost time.
 * - Row triggers with WHEN conditions: a personal best that cannot be on a board never runs the function.
 * - The key columns of a personal best never change on update (the results path updates only its values); the
 *   function still handles it, so a hand-written UPDATE cannot leave a stale row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE leaderboard_bests (
      uid         text NOT NULL,
      board_id    integer NOT NULL,
      wpm         double precision NOT NULL,
      acc         double precision NOT NULL,
      raw         double precision NOT NULL,
      consistency double precision NOT NULL,
      timestamp   bigint NOT NULL,
      PRIMARY KEY (uid, board_id)
    )`.execute(db);

  await sql`
    CREATE FUNCTION leaderboard_bests_sync() RETURNS trigger LANGUAGE plpgsql AS $$
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
  const qualifies = (row: 'NEW' | 'OLD') =>
    sql.raw(
      `${row}.difficulty = 'normal' AND NOT ${row}.punctuation AND NOT ${row}.numbers AND NOT ${row}.lazy_mode`,
    );
  await sql`
    CREATE TRIGGER leaderboard_bests_insert AFTER INSERT ON personal_bests
    FOR EACH ROW WHEN (${qualifies('NEW')}) EXECUTE FUNCTION leaderboard_bests_sync()`.execute(db);
  await sql`
    CREATE TRIGGER leaderboard_bests_update AFTER UPDATE ON personal_bests
    FOR EACH ROW WHEN ((${qualifies('NEW')}) OR (${qualifies('OLD')})) EXECUTE FUNCTION leaderboard_bests_sync()`.execute(
    db,
  );
  await sql`
    CREATE TRIGGER leaderboard_bests_delete AFTER DELETE ON personal_bests
    FOR EACH ROW WHEN (${qualifies('OLD')}) EXECUTE FUNCTION leaderboard_bests_sync()`.execute(db);

  // The personal bests already on boards that exist.
  await sql`
    INSERT INTO leaderboard_bests (uid, board_id, wpm, acc, raw, consistency, timestamp)
    SELECT p.uid, b.id, p.wpm, p.acc, p.raw, p.consistency, p.timestamp
    FROM personal_bests p
    JOIN leaderboard_boards b ON b.language = p.language AND b.mode = p.mode AND b.mode2 = p.mode2
    WHERE p.difficulty = 'normal' AND NOT p.punctuation AND NOT p.numbers AND NOT p.lazy_mode`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER leaderboard_bests_delete ON personal_bests`.execute(db);
  await sql`DROP TRIGGER leaderboard_bests_update ON personal_bests`.execute(db);
  await sql`DROP TRIGGER leaderboard_bests_insert ON personal_bests`.execute(db);
  await sql`DROP FUNCTION leaderboard_bests_sync()`.execute(db);
  await sql`DROP TABLE leaderboard_bests`.execute(db);
}
