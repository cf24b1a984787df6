import { Kysely, sql } from 'kysely';

/**
 * Friend connections (spec "Connection status"). One row per pair of users whoever initiated: the unique index on the
 * ordered pair decides races, so two users requesting each other at the same moment end with one row. Names are not
 * stored; they are joined from `users` when answering, so a name change shows at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TABLE connections (
      id            text PRIMARY KEY,
      initiator_uid text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      receiver_uid  text NOT NULL REFERENCES users(uid) ON DELETE CASCADE,
      status        text NOT NULL CHECK (status IN ('pending', 'accepted', 'rejected', 'blocked')),
      created_at    bigint NOT NULL,
      last_modified bigint NOT NULL,
      CHECK (initiator_uid <> receiver_uid)
    )`.execute(db);
  await sql`
    CREATE UNIQUE INDEX connections_pair_key
      ON connections (LEAST(initiator_uid, receiver_uid), GREATEST(initiator_uid, receiver_uid))`.execute(db);
  await sql`CREATE INDEX connections_initiator_idx ON connections (initiator_uid, status)`.execute(db);
  await sql`CREATE INDEX connections_receiver_idx ON connections (receiver_uid, status)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE connections`.execute(db);
}
