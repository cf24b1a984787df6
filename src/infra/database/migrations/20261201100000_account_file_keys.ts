import { Kysely, sql } from 'kysely';

/**
 * Signed account files (issue 29): every export ends with a signature made with this instance's Ed25519 key, and an
 * import trusts a file signed by this instance or by a key its operator trusted.
 * - `instance_identity`: one row, made on first use: the instance id published with the public key, and the key pair
 *   (PKCS#8 DER of the private key, base64; the raw 32-byte public key, base64url). The key columns stay empty while
 *   the key comes from the environment (EXPORT_SIGNING_KEY); the private key is a secret, never logged or exported.
 * - `trusted_instance_keys`: the other instances' public keys whose files import as they are (`instances trust`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE instance_identity (
      singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
      instance_id text NOT NULL,
      private_key text,
      public_key  text,
      created_at  bigint NOT NULL,
      CHECK ((private_key IS NULL) = (public_key IS NULL))
    )`.execute(db);
  await sql`
    CREATE TABLE trusted_instance_keys (
      public_key  text PRIMARY KEY,
      instance_id text NOT NULL,
      note        text NOT NULL DEFAULT '',
      trusted_at  bigint NOT NULL
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE trusted_instance_keys`.execute(db);
  await sql`DROP TABLE instance_identity`.execute(db);
}
