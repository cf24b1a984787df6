import { Inject, Injectable } from '@nestjs/common';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { DATABASE, poolOf, type Database } from '../../../../infra/database/database';
import type { ResultRow } from '../import-records';
import { copyLine, type CopyValue } from './copy-text';

/** The result columns the import writes (every stored column; `name` may be null in the stage: the user's name). */
const COLUMNS = [
  'id',
  'uid',
  'timestamp',
  'name',
  'wpm',
  'raw_wpm',
  'acc',
  'consistency',
  'key_consistency',
  'char_stats',
  'mode',
  'mode2',
  'quote_length',
  'language',
  'difficulty',
  'punctuation',
  'numbers',
  'lazy_mode',
  'blind_mode',
  'bailed_out',
  'funbox',
  'tags',
  'test_duration',
  'afk_duration',
  'incomplete_test_seconds',
  'restart_count',
  'is_pb',
  'chart_data',
  'key_spacing_stats',
  'key_duration_stats',
  'xp',
  'stop_on_letter',
] as const satisfies readonly (keyof ResultRow)[];

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
 * Results in bulk: each batch is COPYed into a session-local staging table, then moved into `results` in key order
 * with `ON CONFLICT DO NOTHING` (a rerun skips what is there), only for users that exist (the rest are reported, never
 * stored as orphans), all in one transaction per batch. One connection is held for the whole import of results.
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

  async write(rows: ResultRow[]): Promise<ResultsWritten> {
    const client = await this.connection();
    const cols = COLUMNS.join(', ');
    await client.query('BEGIN');
    try {
      await pipeline(
        Readable.from(rows.map(line), { objectMode: false }),
        client.query(copyFrom(`COPY ${STAGE} (${cols}) FROM STDIN`)),
      );
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

  /** Ids of `ids` already stored (dry runs). */
  async existing(ids: string[]): Promise<Set<string>> {
    const client = await this.connection();
    const rows = await client.query<{ id: string }>('SELECT id FROM results WHERE id = ANY($1::text[])', [
      ids,
    ]);
    return new Set(rows.rows.map((r) => r.id));
  }

  release(): void {
    this.client?.release();
    this.client = null;
  }
}
