import { Kysely, sql } from 'kysely';

/**
 * `can_manage_ape_keys`: the original's `canManageApeKeys` flag (contract facts §3.7, §10.3). On by default; support
 * turns it off for a user who abused keys, and the `/ape-keys` routes then answer 403.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN can_manage_ape_keys boolean NOT NULL DEFAULT true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN can_manage_ape_keys`.execute(db);
}
