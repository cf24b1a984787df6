import { Kysely, sql } from 'kysely';

/**
 * Core tables every feature reads: the user row (identity, stats, streak, XP, profile, premium), permissions,
 * personal bests, daily test activity and the server configuration document. Feature tables come in their own
 * migrations and reference `users(uid) ON DELETE CASCADE`, so deleting a user is one statement in one transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE users (
      uid                     text PRIMARY KEY,
      name                    text NOT NULL,
      email                   text NOT NULL DEFAULT '',
      added_at                bigint NOT NULL,
      banned                  boolean NOT NULL DEFAULT false,
      lb_opt_out              boolean NOT NULL DEFAULT false,
      last_name_change_at     bigint,
      completed_tests         integer NOT NULL DEFAULT 0,
      started_tests           integer NOT NULL DEFAULT 0,
      time_typing             double precision NOT NULL DEFAULT 0,
      xp                      bigint NOT NULL DEFAULT 0,
      streak_length           integer NOT NULL DEFAULT 0,
      streak_max_length       integer NOT NULL DEFAULT 0,
      streak_last_result_at   bigint,
      streak_hour_offset      real,
      last_result_at          bigint,
      last_result_hashes      text[] NOT NULL DEFAULT '{}',
      chat_id                 text,
      chat_avatar             text,
      profile_bio             text,
      profile_keyboard        text,
      profile_social_profiles jsonb NOT NULL DEFAULT '{}'::jsonb,
      profile_show_activity   boolean NOT NULL DEFAULT false,
      inventory_badges        jsonb NOT NULL DEFAULT '[]'::jsonb,
      favorite_quotes         jsonb NOT NULL DEFAULT '{}'::jsonb,
      premium_start_at        bigint,
      premium_expires_at      bigint
    )`.execute(db);
  // Names are unique case-insensitively; the index (not a read-then-write) decides races between sign-ups.
  await sql`CREATE UNIQUE INDEX users_name_lower_key ON users (lower(name))`.execute(db);
  await sql`CREATE UNIQUE INDEX users_chat_id_key ON users (chat_id) WHERE chat_id IS NOT NULL`.execute(db);

  await sql`
    CREATE TABLE user_permissions (
      uid        text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      permission text NOT NULL CHECK (permission IN ('admin', 'quoteMod')),
      granted_at bigint NOT NULL,
      PRIMARY KEY (uid, permission)
    )`.execute(db);

  await sql`
    CREATE TABLE personal_bests (
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
      PRIMARY KEY (uid, mode, mode2, language, difficulty, punctuation, numbers, lazy_mode)
    )`.execute(db);

  // One row per user and UTC day (days since the epoch); completed tests that day.
  await sql`
    CREATE TABLE test_activity (
      uid   text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      day   integer NOT NULL,
      tests integer NOT NULL,
      PRIMARY KEY (uid, day)
    )`.execute(db);

  await sql`
    CREATE TABLE server_configuration (
      id         smallint PRIMARY KEY CHECK (id = 1),
      document   jsonb NOT NULL,
      updated_at bigint NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE server_configuration`.execute(db);
  await sql`DROP TABLE test_activity`.execute(db);
  await sql`DROP TABLE personal_bests`.execute(db);
  await sql`DROP TABLE user_permissions`.execute(db);
  await sql`DROP TABLE users`.execute(db);
}
