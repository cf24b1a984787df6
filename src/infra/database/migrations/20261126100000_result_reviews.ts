import { Kysely, sql } from 'kysely';

/**
 * The review queue (issue 23, docs/decisions/0017-review-queue.md): a result above its mode's plausibility ceiling is
 * saved with its personal best and XP, but held off every board until a moderator approves it.
 * - `result_reviews`: one row per held result, with the reasons, the key-timing summary and what the boards need of
 *   the result (so a decision works even after the user deleted their results). Status held → approved | rejected,
 *   with the moderator's uid. Deleting the user deletes the rows; a reset deletes them too (lifecycle hook).
 * - `personal_bests.held_result_id`: the personal best comes from a result that is not on the boards (held, or
 *   rejected). `leaderboard_bests` then keeps the user's best result that is: the trigger leaves it alone for such a
 *   personal best, and `leaderboard_offer_best` raises it for a lower result that may be on the boards (a later one
 *   under a held best, or an approved one that is no longer the best). Both queue the change for the live ranks.
 * - The trigger function is the live-ranks one (20261124160000) with the held condition added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE result_reviews (
      result_id       text PRIMARY KEY,
      uid             text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      status          text NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'approved', 'rejected')),
      reasons         jsonb NOT NULL,
      key_timing      jsonb,
      result          jsonb NOT NULL,
      held_at         bigint NOT NULL,
      decided_by      text,
      decided_at      bigint,
      decision_reason text
    )`.execute(db);
  // The queue, oldest first; and the user's rows (deletion cascades, reset deletes them).
  await sql`CREATE INDEX result_reviews_held_idx ON result_reviews (held_at, result_id) WHERE status = 'held'`.execute(
    db,
  );
  await sql`CREATE INDEX result_reviews_uid_idx ON result_reviews (uid)`.execute(db);

  await sql`ALTER TABLE personal_bests ADD COLUMN held_result_id text`.execute(db);

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
      -- A held personal best is not on the boards: leaderboard_bests keeps the best result that is.
      IF TG_OP <> 'DELETE' AND NEW.held_result_id IS NULL AND NEW.difficulty = 'normal' AND NOT NEW.punctuation
          AND NOT NEW.numbers AND NOT NEW.lazy_mode THEN
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

  // A result that may be on the boards, below a personal best that may not: it becomes the user's board entry
  // where it beats the one there (wpm, as personal bests compare), and the change is queued for the live ranks.
  await sql`
    CREATE FUNCTION leaderboard_offer_best(
      p_uid text, p_language text, p_mode text, p_mode2 text, p_difficulty text, p_punctuation boolean,
      p_numbers boolean, p_lazy_mode boolean, p_wpm double precision, p_acc double precision,
      p_raw double precision, p_consistency double precision, p_timestamp bigint
    ) RETURNS void LANGUAGE sql AS $$
      WITH written AS (
        INSERT INTO leaderboard_bests AS lb (uid, board_id, wpm, acc, raw, consistency, timestamp)
        SELECT p_uid, b.id, p_wpm, p_acc, p_raw, p_consistency, p_timestamp
        FROM leaderboard_boards b
        WHERE b.language = p_language AND b.mode = p_mode AND b.mode2 = p_mode2
          AND p_difficulty = 'normal' AND NOT p_punctuation AND NOT p_numbers AND NOT p_lazy_mode
        ON CONFLICT (uid, board_id) DO UPDATE
          SET wpm = EXCLUDED.wpm, acc = EXCLUDED.acc, raw = EXCLUDED.raw, consistency = EXCLUDED.consistency,
              timestamp = EXCLUDED.timestamp
          WHERE lb.wpm < EXCLUDED.wpm
        RETURNING lb.uid, lb.board_id
      )
      INSERT INTO leaderboard_best_changes (uid, board_id) SELECT uid, board_id FROM written
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP FUNCTION leaderboard_offer_best(text, text, text, text, text, boolean, boolean, boolean,
    double precision, double precision, double precision, double precision, bigint)`.execute(db);
  // The live-ranks trigger function, as 20261124160000 left it.
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
  await sql`ALTER TABLE personal_bests DROP COLUMN held_result_id`.execute(db);
  await sql`DROP TABLE result_reviews`.execute(db);
}
