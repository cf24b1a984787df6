import { Kysely, sql } from 'kysely';

/** Custom themes of a user (spec "Other resources"): a name and the nine named hex colours. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE custom_themes (
      id         text PRIMARY KEY,
      uid        text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      name       text NOT NULL,
      colors     jsonb NOT NULL,
      created_at bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX custom_themes_uid_idx ON custom_themes (uid, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE custom_themes`.execute(db);
}
