import { Kysely, sql } from 'kysely';

/**
 * A user to take off the daily and weekly (Redis) boards: queued in the transaction of the change, so the removal
 * outlives a Redis outage or a crash between the commit and the post-commit purge
 * (docs/decisions/0023-board-removals-and-catch-up.md: opt-out, ban, reset and deletion hold for changes made while
 * Redis was unreachable too).
 * - A ban, an opt-out and a deletion are queued by a trigger on `users`, whatever wrote them (API, CLI, import).
 *   The update trigger fires only when the flag turns on, and only for statements that set those columns (a result
 *   submission's update of `users` does not).
 * - A reset is queued by the leaderboards feature's reset handler, in the reset transaction.
 * The post-commit purge removes the user from Redis and deletes the rows it saw; what it could not remove (Redis
 * down, a crash) the board catch-up applies when Redis is back (BoardCatchUpService). Applying a row twice is harmless.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE leaderboard_board_removals (
      id     bigserial PRIMARY KEY,
      uid    text NOT NULL,
      reason text NOT NULL CHECK (reason IN ('ban', 'optOut', 'reset', 'delete'))
    )`.execute(db);
  await sql`CREATE INDEX leaderboard_board_removals_uid_idx ON leaderboard_board_removals (uid)`.execute(db);

  await sql`
    CREATE FUNCTION leaderboard_board_removals_queue() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        INSERT INTO leaderboard_board_removals (uid, reason) VALUES (OLD.uid, 'delete');
      ELSIF NEW.banned AND NOT OLD.banned THEN
        INSERT INTO leaderboard_board_removals (uid, reason) VALUES (NEW.uid, 'ban');
      ELSE
        INSERT INTO leaderboard_board_removals (uid, reason) VALUES (NEW.uid, 'optOut');
      END IF;
      RETURN NULL;
    END
    $$`.execute(db);
  await sql`
    CREATE TRIGGER users_board_removals_update
    AFTER UPDATE OF banned, lb_opt_out ON users
    FOR EACH ROW
    WHEN ((NEW.banned AND NOT OLD.banned) OR (NEW.lb_opt_out AND NOT OLD.lb_opt_out))
    EXECUTE FUNCTION leaderboard_board_removals_queue()`.execute(db);
  await sql`
    CREATE TRIGGER users_board_removals_delete
    AFTER DELETE ON users
    FOR EACH ROW
    EXECUTE FUNCTION leaderboard_board_removals_queue()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TRIGGER users_board_removals_delete ON users`.execute(db);
  await sql`DROP TRIGGER users_board_removals_update ON users`.execute(db);
  await sql`DROP FUNCTION leaderboard_board_removals_queue()`.execute(db);
  await sql`DROP TABLE leaderboard_board_removals`.execute(db);
}
