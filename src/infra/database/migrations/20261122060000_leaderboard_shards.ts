import { Kysely, sql } from 'kysely';

/**
 * The all-time snapshot in two shards, so a rebuild keeps both cores of a small machine busy from start to end: each
 * shard holds whole boards (all boards of some modes), is ranked, written and indexed on a connection of its own, and
 * numbers its entries in a position range of its own (shard 0 from 1, shard 1 from 2^30 + 1).
 * `leaderboard_entries` becomes a table partitioned by position range, whose partitions `leaderboard_shard_0|1` are
 * unlogged and carry the same two indexes the single table had; reads are unchanged. The snapshot is derived data:
 * dropping it here is harmless, the start-up rebuild fills the new one.
 */
/** The snapshot's columns, the same before and after this migration. */
const COLUMNS = sql`(
      board_id    integer NOT NULL,
      position    integer NOT NULL,
      uid         text NOT NULL,
      wpm         double precision NOT NULL,
      acc         double precision NOT NULL,
      raw         double precision NOT NULL,
      consistency double precision NOT NULL,
      timestamp   bigint NOT NULL
    )`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS leaderboard_entries_next`.execute(db);
  await sql`DROP TABLE IF EXISTS leaderboard_entries_old`.execute(db);
  await sql`DROP TABLE leaderboard_entries`.execute(db);
  await sql`
    CREATE TABLE leaderboard_entries ${COLUMNS} PARTITION BY RANGE (position)`.execute(db);
  const bounds = [sql`FROM (MINVALUE) TO (1073741824)`, sql`FROM (1073741824) TO (MAXVALUE)`];
  for (const [shard, bound] of bounds.entries()) {
    const table = `leaderboard_shard_${shard}`;
    await sql`CREATE UNLOGGED TABLE ${sql.table(table)} PARTITION OF leaderboard_entries FOR VALUES ${bound}`.execute(
      db,
    );
    await sql`CREATE UNIQUE INDEX ${sql.id(`${table}_position_key`)} ON ${sql.table(table)} (board_id, position)`.execute(
      db,
    );
    await sql`CREATE INDEX ${sql.id(`${table}_uid_hash_idx`)} ON ${sql.table(table)} (hashtextextended(uid, 0))`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP TABLE IF EXISTS leaderboard_entries_next`.execute(db);
  await sql`DROP TABLE IF EXISTS leaderboard_entries_old`.execute(db);
  await sql`DROP TABLE leaderboard_entries`.execute(db);
  await sql`
    CREATE UNLOGGED TABLE leaderboard_entries ${COLUMNS}`.execute(db);
  await sql`
    CREATE UNIQUE INDEX leaderboard_entries_position_key ON leaderboard_entries (board_id, position)`.execute(
    db,
  );
  await sql`
    CREATE INDEX leaderboard_entries_uid_hash_idx ON leaderboard_entries (hashtextextended(uid, 0))`.execute(
    db,
  );
}
