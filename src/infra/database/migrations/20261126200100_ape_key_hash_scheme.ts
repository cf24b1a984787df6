import { Kysely, sql } from 'kysely';

/**
 * How a key's secret was hashed, per key, so keys made by the original platform keep working after an import:
 * - `sha256-bcrypt` (ours): bcrypt of the secret's SHA-256 digest (every character of a long secret counts);
 * - `bcrypt` (the original's): bcrypt of the secret itself.
 * Existing keys are ours; the default keeps key creation unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE ape_keys
      ADD COLUMN hash_scheme text NOT NULL DEFAULT 'sha256-bcrypt'
        CHECK (hash_scheme IN ('sha256-bcrypt', 'bcrypt'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE ape_keys DROP COLUMN hash_scheme`.execute(db);
}
