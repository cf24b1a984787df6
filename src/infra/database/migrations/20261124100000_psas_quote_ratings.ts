import { Kysely, sql } from 'kysely';

/**
 * Public service announcements (`GET /psas`) and quote ratings (`/quotes/rating`).
 *
 * - `psas`: operator announcements; `release_id` is set on those a published release created, so a redelivered
 *   release webhook never announces twice.
 * - `quote_ratings`: one aggregate per quote (the original's `quote-rating` document: count and total, the average
 *   derived from them). Quotes live in the clients' quote lists, so a rating names its quote by language and id.
 * - `user_quote_ratings`: each user's own rating of a quote, so a second rating updates the aggregate instead of
 *   counting twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE psas (
      id         text PRIMARY KEY,
      message    text NOT NULL,
      date       bigint,
      level      integer,
      sticky     boolean,
      release_id text UNIQUE,
      created_at bigint NOT NULL
    )`.execute(db);

  await sql`
    CREATE TABLE quote_ratings (
      id           text NOT NULL UNIQUE,
      language     text NOT NULL,
      quote_id     integer NOT NULL,
      ratings      integer NOT NULL CHECK (ratings >= 0),
      total_rating integer NOT NULL CHECK (total_rating >= 0),
      PRIMARY KEY (language, quote_id)
    )`.execute(db);

  await sql`
    CREATE TABLE user_quote_ratings (
      uid      text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      language text NOT NULL,
      quote_id integer NOT NULL,
      rating   smallint NOT NULL CHECK (rating BETWEEN 1 AND 5),
      PRIMARY KEY (uid, language, quote_id)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE user_quote_ratings`.execute(db);
  await sql`DROP TABLE quote_ratings`.execute(db);
  await sql`DROP TABLE psas`.execute(db);
}
