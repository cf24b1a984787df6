import { Kysely, sql } from 'kysely';

/**
 * Password resets (`POST /users/forgotPasswordEmail`, `POST /admin/sendForgotPasswordEmail`) find the account by its
 * address, case-insensitively: without this index each request would scan every user. Not unique: the identity
 * provider owns addresses, and rows imported from the original may share one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX users_email_lower_idx ON users (lower(email))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX users_email_lower_idx`.execute(db);
}
