import { Kysely, sql } from 'kysely';

/**
 * What the daily and weekly XP boards need to be rebuilt from PostgreSQL after a Redis outage (or a crash between a
 * submission's commit and its board writes): the XP a result earned and whether it was a stop-on-letter test (such
 * results enter a daily board only at 100% accuracy). A BRIN index on `timestamp` finds a day's or a week's results
 * without scanning the table; results arrive in time order, so it stays tiny and costs inserts next to nothing.
 * Constant defaults: adding the columns rewrites nothing; older results count as 0 XP and not stop-on-letter.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE results
      ADD COLUMN xp integer NOT NULL DEFAULT 0,
      ADD COLUMN stop_on_letter boolean NOT NULL DEFAULT false`.execute(db);
  await sql`CREATE INDEX results_timestamp_brin ON results USING brin (timestamp)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX results_timestamp_brin`.execute(db);
  await sql`ALTER TABLE results DROP COLUMN xp, DROP COLUMN stop_on_letter`.execute(db);
}
