import { Kysely, sql } from 'kysely';

/**
 * The quarantine of refused results: a result the anti-cheat refuses (463, 464, 465) is kept here for a while, with the
 * body exactly as received, the check that refused it and its figures, so a threshold that wrongly refused genuine
 * results can be fixed and the results replayed and reinstated rather than lost. Never on a board; bounded per account
 * and in total (the oldest go first); deleted with the account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE refused_results (
      id             text PRIMARY KEY,
      uid            text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      refused_at     bigint NOT NULL,
      status         smallint NOT NULL CHECK (status IN (463, 464, 465)),
      check_name     text NOT NULL,
      figures        jsonb NOT NULL,
      body           jsonb NOT NULL,
      client_version text
    )`.execute(db);
  await sql`CREATE INDEX refused_results_uid_at ON refused_results (uid, refused_at)`.execute(db);
  await sql`CREATE INDEX refused_results_at ON refused_results (refused_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE refused_results`.execute(db);
}
