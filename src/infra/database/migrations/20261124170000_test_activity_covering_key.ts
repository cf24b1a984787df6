import { Kysely, sql } from 'kysely';

/**
 * `test_activity`'s primary key carries `tests`, so a profile's activity read (`uid = $1 AND day >= $2`, about 50
 * rows) is an index-only scan: a user's rows are written one day at a time between other users' rows, so the plain
 * key found them on about one heap page each (49 pages for 51 rows). The key is replaced rather than a second index
 * added: the daily counter's upsert no longer qualifies for a HOT update either way (`tests` is indexed now), and one
 * index to maintain per submission costs less than two.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE test_activity
      DROP CONSTRAINT test_activity_pkey,
      ADD CONSTRAINT test_activity_pkey PRIMARY KEY (uid, day) INCLUDE (tests)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE test_activity
      DROP CONSTRAINT test_activity_pkey,
      ADD CONSTRAINT test_activity_pkey PRIMARY KEY (uid, day)`.execute(db);
}
