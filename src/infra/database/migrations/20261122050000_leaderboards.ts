import { Kysely, sql } from 'kysely';

/**
 * All-time leaderboards.
 * - `leaderboard_boards`: a stable small id per (language, mode, mode2), so snapshot rows and their indexes stay
 *   narrow.
 * - `leaderboard_entries`: the live snapshot, one row per (board, user) with a precomputed `rank`. The rebuild job
 *   builds a complete new table and swaps it in by renaming inside one transaction, so readers see the old board or
 *   the new one, never a half-built one. Pages are range reads on (board_id, rank); a user's rank is a lookup on
 *   (uid, board_id). Names, badges and bans are joined from `users` at read time (always current).
 * - `leaderboard_job_runs`: the period each scheduled job last finished (a rebuild interval, a UTC day, an ISO week),
 *   so a second replica or a retry of the same period does nothing. Reward mails commit in the same transaction as
 *   their run record, so they go out exactly once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE leaderboard_boards (
      id       integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      language text NOT NULL,
      mode     text NOT NULL,
      mode2    text NOT NULL,
      UNIQUE (language, mode, mode2)
    )`.execute(db);

  await sql`
    CREATE TABLE leaderboard_entries (
      board_id    integer NOT NULL,
      rank        integer NOT NULL,
      uid         text NOT NULL,
      wpm         double precision NOT NULL,
      acc         double precision NOT NULL,
      raw         double precision NOT NULL,
      consistency double precision NOT NULL,
      timestamp   bigint NOT NULL
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX leaderboard_entries_rank_key ON leaderboard_entries (board_id, rank)`.execute(db);
  await sql`CREATE UNIQUE INDEX leaderboard_entries_uid_key ON leaderboard_entries (uid, board_id)`.execute(db);

  await sql`
    CREATE TABLE leaderboard_job_runs (
      job         text NOT NULL,
      period      text NOT NULL,
      finished_at bigint NOT NULL,
      details     jsonb NOT NULL DEFAULT '{}'::jsonb,
      PRIMARY KEY (job, period)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE leaderboard_job_runs`.execute(db);
  await sql`DROP TABLE IF EXISTS leaderboard_entries_next`.execute(db);
  await sql`DROP TABLE leaderboard_entries`.execute(db);
  await sql`DROP TABLE leaderboard_boards`.execute(db);
}
