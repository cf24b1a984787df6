import { Kysely, sql } from 'kysely';

/**
 * Jobs the code host's release webhook enqueues (a release announcement per published release). The release id is
 * the key, so a replayed or duplicated delivery never enqueues a second job.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE release_jobs (
      release_id  text PRIMARY KEY,
      kind        text NOT NULL,
      status      text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
      tag_name    text,
      delivery_id text,
      created_at  bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX release_jobs_status_idx ON release_jobs (status, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE release_jobs`.execute(db);
}
