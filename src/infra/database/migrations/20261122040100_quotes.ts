import { Kysely, sql } from 'kysely';

/**
 * Quote moderation: the submission queue, the approved quotes (numbered per language, as the original platform's
 * per-language quote files) and quote reports.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE new_quotes (
      id           text PRIMARY KEY,
      uid          text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      text         text NOT NULL,
      source       text NOT NULL,
      language     text NOT NULL,
      submitted_at bigint NOT NULL
    )`.execute(db);
  // Moderators read the oldest first; the per-language cap counts by language.
  await sql`CREATE INDEX new_quotes_submitted_idx ON new_quotes (submitted_at, id)`.execute(db);
  await sql`CREATE INDEX new_quotes_language_idx ON new_quotes (language)`.execute(db);
  // The same text twice in one language's queue is one submission (md5: texts can exceed an index row).
  await sql`CREATE UNIQUE INDEX new_quotes_language_text_key ON new_quotes (language, md5(text))`.execute(db);

  // Approved quotes outlive the accounts involved, so submitter and approver are plain values, not references.
  await sql`
    CREATE TABLE quotes (
      language         text NOT NULL,
      id               integer NOT NULL CHECK (id > 0),
      text             text NOT NULL,
      source           text NOT NULL,
      length           integer NOT NULL,
      submitted_by     text NOT NULL,
      approved_by_uid  text NOT NULL,
      approved_by      text NOT NULL,
      approved_at      bigint NOT NULL,
      PRIMARY KEY (language, id)
    )`.execute(db);
  await sql`CREATE UNIQUE INDEX quotes_language_text_key ON quotes (language, md5(text))`.execute(db);

  // content_id is "<language>-<quoteId>" (the original's report content id); one report per reporter and quote.
  await sql`
    CREATE TABLE quote_reports (
      id             uuid PRIMARY KEY,
      uid            text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      content_id     text NOT NULL,
      quote_id       integer NOT NULL,
      quote_language text NOT NULL,
      reason         text NOT NULL,
      comment        text NOT NULL DEFAULT '',
      created_at     bigint NOT NULL,
      UNIQUE (content_id, uid)
    )`.execute(db);
  await sql`CREATE INDEX quote_reports_uid_idx ON quote_reports (uid)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE quote_reports`.execute(db);
  await sql`DROP TABLE quotes`.execute(db);
  await sql`DROP TABLE new_quotes`.execute(db);
}
