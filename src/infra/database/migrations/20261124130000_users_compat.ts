import { Kysely, sql } from 'kysely';

/**
 * What the original web client needs of the users area (contract facts §7, §12.1):
 * - `lb_memory`: the leaderboard ranks the client remembers per mode/mode2/language (`PATCH /users/leaderboardMemory`);
 * - `can_report`: the original's `canReport` flag (default on; moderators turn it off for abusers);
 * - `result_filter_presets`: saved result filters (the ResultFilters document as sent, minus `_id`);
 * - user reports share `quote_reports` with quote reports (the original keeps both in one `reports` collection), so
 *   the admin accept/reject routes work on either by id: `type` tells them apart, and `content_id` is the reported
 *   uid for a user report (no quote id or language then).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE users
      ADD COLUMN lb_memory  jsonb   NOT NULL DEFAULT '{}',
      ADD COLUMN can_report boolean NOT NULL DEFAULT true`.execute(db);

  await sql`
    CREATE TABLE result_filter_presets (
      id         text PRIMARY KEY,
      uid        text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      name       text NOT NULL,
      filters    jsonb NOT NULL,
      created_at bigint NOT NULL
    )`.execute(db);
  await sql`CREATE INDEX result_filter_presets_uid_idx ON result_filter_presets (uid, created_at)`.execute(
    db,
  );

  await sql`
    ALTER TABLE quote_reports
      ADD COLUMN type text NOT NULL DEFAULT 'quote' CHECK (type IN ('quote', 'user')),
      ALTER COLUMN quote_id DROP NOT NULL,
      ALTER COLUMN quote_language DROP NOT NULL,
      ADD CONSTRAINT quote_reports_quote_fields_check
        CHECK (type <> 'quote' OR (quote_id IS NOT NULL AND quote_language IS NOT NULL))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM quote_reports WHERE type <> 'quote'`.execute(db);
  await sql`
    ALTER TABLE quote_reports
      DROP CONSTRAINT quote_reports_quote_fields_check,
      DROP COLUMN type,
      ALTER COLUMN quote_id SET NOT NULL,
      ALTER COLUMN quote_language SET NOT NULL`.execute(db);
  await sql`DROP TABLE result_filter_presets`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN lb_memory, DROP COLUMN can_report`.execute(db);
}
