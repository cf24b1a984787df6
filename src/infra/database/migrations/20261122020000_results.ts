import { Kysely, sql } from 'kysely';

/**
 * Stored typing-test results. Default-valued fields have column defaults so the row stays narrow; the client-only
 * fields of a submission (hash, raw key timings, challenge, custom text) are not kept, as on the original platform.
 * `(uid, timestamp DESC, id DESC)` serves the newest-first history and its paging; the submission itself never
 * scans results (the last result's time lives on the user row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE results (
      id                      text PRIMARY KEY,
      uid                     text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      timestamp               bigint NOT NULL,
      name                    text NOT NULL,
      wpm                     double precision NOT NULL,
      raw_wpm                 double precision NOT NULL,
      acc                     double precision NOT NULL,
      consistency             double precision NOT NULL,
      key_consistency         double precision,
      char_stats              integer[],
      mode                    text NOT NULL,
      mode2                   text NOT NULL,
      quote_length            smallint,
      language                text NOT NULL,
      difficulty              text NOT NULL DEFAULT 'normal',
      punctuation             boolean NOT NULL DEFAULT false,
      numbers                 boolean NOT NULL DEFAULT false,
      lazy_mode               boolean NOT NULL DEFAULT false,
      blind_mode              boolean NOT NULL DEFAULT false,
      bailed_out              boolean NOT NULL DEFAULT false,
      funbox                  text[] NOT NULL DEFAULT '{}',
      tags                    text[] NOT NULL DEFAULT '{}',
      test_duration           double precision NOT NULL,
      afk_duration            double precision NOT NULL DEFAULT 0,
      incomplete_test_seconds double precision NOT NULL DEFAULT 0,
      restart_count           integer NOT NULL DEFAULT 0,
      is_pb                   boolean NOT NULL DEFAULT false,
      chart_data              jsonb,
      key_spacing_stats       jsonb,
      key_duration_stats      jsonb
    )`.execute(db);
  await sql`CREATE INDEX results_uid_timestamp_idx ON results (uid, timestamp DESC, id DESC)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE results`.execute(db);
}
