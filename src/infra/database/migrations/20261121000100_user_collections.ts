import { Kysely, sql } from 'kysely';

/**
 * User-owned collections several features share: tags and their personal bests (written by result submission,
 * managed by the user routes) and inbox mail (sent by results and leaderboard jobs, read by the user routes).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE tags (
      id         text PRIMARY KEY,
      uid        text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      name       text NOT NULL,
      created_at bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX tags_uid_idx ON tags (uid)`.execute(db);

  await sql`
    CREATE TABLE tag_personal_bests (
      tag_id      text NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
      uid         text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      mode        text NOT NULL,
      mode2       text NOT NULL,
      language    text NOT NULL,
      difficulty  text NOT NULL,
      punctuation boolean NOT NULL,
      numbers     boolean NOT NULL,
      lazy_mode   boolean NOT NULL,
      wpm         double precision NOT NULL,
      acc         double precision NOT NULL,
      raw         double precision NOT NULL,
      consistency double precision NOT NULL,
      timestamp   bigint NOT NULL,
      PRIMARY KEY (tag_id, mode, mode2, language, difficulty, punctuation, numbers, lazy_mode)
    )`.execute(db);
  await sql`CREATE INDEX tag_personal_bests_uid_idx ON tag_personal_bests (uid)`.execute(db);

  // Mail ids are UUIDs (spec "Other resources"). rewards: [{ type: 'badge', item: { id } } | { type: 'xp', item: n }].
  await sql`
    CREATE TABLE inbox_mail (
      id        uuid PRIMARY KEY,
      uid       text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      subject   text NOT NULL,
      body      text NOT NULL,
      rewards   jsonb NOT NULL DEFAULT '[]'::jsonb,
      timestamp bigint NOT NULL,
      read      boolean NOT NULL DEFAULT false
    )`.execute(db);
  await sql`CREATE INDEX inbox_mail_uid_timestamp_idx ON inbox_mail (uid, timestamp DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE inbox_mail`.execute(db);
  await sql`DROP TABLE tag_personal_bests`.execute(db);
  await sql`DROP TABLE tags`.execute(db);
}
