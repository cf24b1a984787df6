import { Kysely, sql } from 'kysely';

/**
 * The blocklist (domain facts §5.10, §8.1): when a banned account is deleted, the SHA-256 (hex) of its lower-cased
 * name, email and chat id are kept, so the same person cannot sign up again with them, rename into them or link the
 * same chat account. Only hashes are stored: the list must not become a record of who was banned. One row per
 * (kind, hash), as the original's unique index on each hash field.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE blocklist (
      kind       text NOT NULL CHECK (kind IN ('name', 'email', 'chatId')),
      hash       text NOT NULL CHECK (hash ~ '^[0-9a-f]{64}$'),
      created_at bigint NOT NULL,
      PRIMARY KEY (kind, hash)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE blocklist`.execute(db);
}
