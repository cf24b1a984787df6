import { Kysely, sql } from 'kysely';

/**
 * A user's saved client configuration (one partial document per user; defaults fill the rest on read) and their
 * named presets of configuration values.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE user_configs (
      uid        text PRIMARY KEY REFERENCES users(uid) ON DELETE CASCADE,
      config     jsonb NOT NULL DEFAULT '{}'::jsonb,
      updated_at bigint NOT NULL
    )`.execute(db);

  // setting_groups NULL = the preset applies every key of its config (the original client's default).
  await sql`
    CREATE TABLE presets (
      id             text PRIMARY KEY,
      uid            text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      name           text NOT NULL,
      config         jsonb NOT NULL,
      setting_groups text[],
      created_at     bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX presets_uid_created_idx ON presets (uid, created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE presets`.execute(db);
  await sql`DROP TABLE user_configs`.execute(db);
}
