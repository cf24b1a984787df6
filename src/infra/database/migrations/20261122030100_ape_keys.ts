import { Kysely, sql } from 'kysely';

/**
 * ApeKeys (spec "ApeKey"): only the bcrypt hash of the secret is stored. `last_used_on` is -1 until first use, as the
 * original platform reports it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE ape_keys (
      id           text PRIMARY KEY,
      uid          text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      name         text NOT NULL,
      enabled      boolean NOT NULL,
      hash         text NOT NULL,
      created_on   bigint NOT NULL,
      modified_on  bigint NOT NULL,
      last_used_on bigint NOT NULL DEFAULT -1
    )`.execute(db);
  await sql`CREATE INDEX ape_keys_uid_idx ON ape_keys (uid, created_on)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE ape_keys`.execute(db);
}
