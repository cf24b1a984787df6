import { Kysely, sql } from 'kysely';

/**
 * All-time leaderboards.
 * - `leaderboard_boards`: a stable small id per (language, mode, mode2), and where the board sits in the current
 *   snapshot (`first_position`, `size`).
 * - `leaderboard_entries`: the live snapshot, every board's entries in one global order (board, then wpm desc, acc
 *   desc, older PB first); an entry's rank is `position - first_position + 1`. The rebuild job builds a complete new
 *   table and swaps it in (renames plus the boards' positions) inside one transaction, so readers see the old
 *   snapshot or the new one, never a half-built one. Pages are range reads on (board_id, position); a user's entries
 *   are found through the hash of their uid (an integer index builds several times faster than one on text).
 *   Unlogged: it is derived data, rebuilt every few minutes and at start after a crash emptied it; skipping the WAL
 *   saves about a tenth of a rebuild of millions of entries.
 * - `leaderboard_job_runs`: the period each scheduled job last finished (a rebuild interval, a UTC day, an ISO week),
 *   so a second replica or a retry of the same period does nothing. Reward mails commit in the same transaction as
 *   their run record, so they go out exactly once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE leaderboard_boards (
      id             integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      language       text NOT NULL,
      mode           text NOT NULL,
      mode2          text NOT NULL,
      first_position integer NOT NULL DEFAULT 0,
      size           integer NOT NULL DEFAULT 0,
      UNIQUE (language, mode, mode2),
      -- The build packs the board id into the top 16 bits of a 64-bit sort key.
      CHECK (id < 32768)
    )`.execute(db);

  await sql`
    CREATE UNLOGGED TABLE leaderboard_entries (
      board_id    integer NOT NULL,
      position    integer NOT NULL,
      uid         text NOT NULL,
      wpm         double precision NOT NULL,
      acc         double precision NOT NULL,
      raw         double precision NOT NULL,
      consistency double precision NOT NULL,
      timestamp   bigint NOT NULL
    )`.execute(db);
  await sql`
    CREATE UNIQUE INDEX leaderboard_entries_position_key ON leaderboard_entries (board_id, position)`.execute(
    db,
  );
  await sql`
    CREATE INDEX leaderboard_entries_uid_hash_idx ON leaderboard_entries (hashtextextended(uid, 0))`.execute(
    db,
  );

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
  await sql`DROP TABLE IF EXISTS leaderboard_entries_old`.execute(db);
  await sql`DROP TABLE leaderboard_entries`.execute(db);
  await sql`DROP TABLE leaderboard_boards`.execute(db);
}
