import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { DATABASE, poolOf, type Database } from '../../../../infra/database/database';
import { INSERT_COLUMNS } from '../../../results/result-columns';
import type { ResultRow } from '../import-records';
import { copyLine, type CopyValue } from './copy-text';

/** The result columns the import writes: every stored column, as a submission inserts them (`name` may be null in the
 * stage: the user's name is filled in). */
const COLUMNS = INSERT_COLUMNS satisfies readonly (keyof ResultRow)[];

const STAGE = 'import_results_stage';
const JSON_COLUMNS = new Set<string>(['chart_data', 'key_spacing_stats', 'key_duration_stats']);

function line(row: ResultRow): string {
  return copyLine(COLUMNS.map((c) => (JSON_COLUMNS.has(c) ? { json: row[c] } : (row[c] as CopyValue))));
}

export interface ResultsWritten {
  inserted: number;
  /** Ids of rows whose user does not exist here. */
  missingUser: string[];
}

/**
 * Results in bulk, one transaction per batch, never an orphan (results of users not here are reported) and never a
 * duplicate (a rerun skips what is there). One connection is held for the whole import of results.
 */
@Injectable()
export class ResultsWriterRepository {
  private client: pg.PoolClient | null = null;

  constructor(@Inject(DATABASE) private readonly db: Database) {}

  private async connection(): Promise<pg.PoolClient> {
    if (this.client) return this.client;
    const pool = poolOf(this.db);
    if (!pool) throw new Error('the database has no pool to take a connection from');
    const client = await pool.connect();
    try {
      await client.query(
        `CREATE TEMP TABLE IF NOT EXISTS ${STAGE} (LIKE results INCLUDING DEFAULTS) ON COMMIT DELETE ROWS`,
      );
      await client.query(`ALTER TABLE ${STAGE} ALTER COLUMN name DROP NOT NULL`);
      // No statement timeout for the bulk statements of a long import (the pool's is meant for requests).
      await client.query('SET statement_timeout = 0');
    } catch (e) {
      client.release(true);
      throw e;
    }
    this.client = client;
    return client;
  }

  /**
   * Writes a batch. The fast path COPYs straight into `results`: the users are looked up first (a result of a user
   * who is not here is reported, and the name old results lack is taken from the user), and a batch that is not
   * there yet goes in with the table's own work only. A batch that meets rows already stored (a rerun, or the batch
   * a killed run had committed) or a user deleted meanwhile fails that COPY as a whole and is written again through
   * the staging table, which skips what exists.
   */
  async write(rows: ResultRow[]): Promise<ResultsWritten> {
    const client = await this.connection();
    const uids = [...new Set(rows.map((r) => r.uid))];
    const users = await client.query<{ uid: string; name: string }>(
      'SELECT uid, name FROM users WHERE uid = ANY($1::text[])',
      [uids],
    );
    const names = new Map(users.rows.map((u) => [u.uid, u.name]));
    const present: ResultRow[] = [];
    const missingUser: string[] = [];
    for (const row of rows) {
      const name = names.get(row.uid);
      if (name === undefined) missingUser.push(row.id);
      else present.push(row.name === null ? { ...row, name } : row);
    }
    if (present.length === 0) return { inserted: 0, missingUser };
    present.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await client.query('BEGIN');
    try {
      await this.copy(client, 'results', present);
      await client.query('COMMIT');
      return { inserted: present.length, missingUser };
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      const code = (e as { code?: string }).code;
      // 23505: a row is already there; 23503: its user went away meanwhile. Anything else is not ours to absorb.
      if (code !== '23505' && code !== '23503') throw e;
    }
    const staged = await this.writeStaged(present);
    return { inserted: staged.inserted, missingUser: [...missingUser, ...staged.missingUser] };
  }

  private async copy(client: pg.PoolClient, table: string, rows: ResultRow[]): Promise<void> {
    const text = rows.map(line).join('');
    const stream = client.query(copyFrom(`COPY ${table} (${COLUMNS.join(', ')}) FROM STDIN`));
    await pipeline(Readable.from([text]), stream);
  }

  /** The idempotent path: COPY into the staging table, then move what is not stored yet, for users that exist. */
  private async writeStaged(rows: ResultRow[]): Promise<ResultsWritten> {
    const client = await this.connection();
    const cols = COLUMNS.join(', ');
    await client.query('BEGIN');
    try {
      await this.copy(client, STAGE, rows);
      const picked = COLUMNS.map((c) => (c === 'name' ? 'coalesce(s.name, u.name)' : `s.${c}`)).join(', ');
      const inserted = await client.query(
        `INSERT INTO results (${cols})
         SELECT ${picked} FROM ${STAGE} s JOIN users u ON u.uid = s.uid
         ORDER BY s.id
         ON CONFLICT DO NOTHING`,
      );
      const missing = await client.query<{ id: string }>(
        `SELECT s.id FROM ${STAGE} s WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.uid = s.uid)`,
      );
      await client.query('COMMIT');
      return { inserted: inserted.rowCount ?? 0, missingUser: missing.rows.map((r) => r.id) };
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  /** Ids of `ids` already stored (dry runs: a plain read, no staging table). */
  async existing(ids: string[]): Promise<Set<string>> {
    const rows = await sql<{ id: string }>`SELECT id FROM results WHERE id = ANY(${ids}::text[])`.execute(
      this.db,
    );
    return new Set(rows.rows.map((r) => r.id));
  }

  release(): void {
    this.client?.release();
    this.client = null;
  }
}
