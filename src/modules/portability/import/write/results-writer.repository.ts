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
import { bucketOf, type Replay, type ReplayAccount, type StoredBest } from './result-replay';

/** The result columns the import writes: every stored column, as a submission inserts them (`name` may be null in the
 * stage: the user's name is filled in). */
const COLUMNS = INSERT_COLUMNS satisfies readonly (keyof ResultRow)[];

const STAGE = 'import_results_stage';

interface PbRow {
  mode: string;
  mode2: string;
  language: string;
  difficulty: string;
  punctuation: boolean;
  numbers: boolean;
  lazy_mode: boolean;
  wpm: number;
}
const JSON_COLUMNS = new Set<string>(['chart_data', 'key_spacing_stats', 'key_duration_stats']);

function line(row: ResultRow): string {
  return copyLine(COLUMNS.map((c) => (JSON_COLUMNS.has(c) ? { json: row[c] } : (row[c] as CopyValue))));
}

export interface ResultsWritten {
  inserted: number;
  /** Ids of rows whose user does not exist here. */
  missingUser: string[];
}

/** What a deriving write reads, locked, before it replays the new results (result-replay.ts). */
export interface StoredAccounts {
  accounts: Map<string, ReplayAccount>;
  bests: StoredBest[];
  /** The tags each account owns. */
  tagsOf: Map<string, Set<string>>;
}

const PB_KEY = 'mode, mode2, language, difficulty, punctuation, numbers, lazy_mode';
const PB_VALUES = `${PB_KEY}, wpm, acc, raw, consistency, timestamp`;
const PB_UPDATE =
  'wpm = excluded.wpm, acc = excluded.acc, raw = excluded.raw, consistency = excluded.consistency, timestamp = excluded.timestamp';

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

  /**
   * Writes a batch as submissions would have: in one transaction, with the accounts locked, the results not stored
   * yet are replayed (`replay`, given what is stored) and written with what they change: the accounts' counters,
   * streak, XP and last result time, the personal bests and tag bests they beat (held ones off the boards), the daily
   * activity, and the review queue's rows of held results. A rerun finds the results stored and changes nothing.
   */
  async writeDeriving(
    rows: ResultRow[],
    replay: (rows: ResultRow[], stored: StoredAccounts) => Replay,
  ): Promise<ResultsWritten> {
    const client = await this.connection();
    const uids = [...new Set(rows.map((r) => r.uid))].sort();
    await client.query('BEGIN');
    try {
      const users = await client.query<{
        uid: string;
        name: string;
        xp: string;
        last_result_at: string | null;
        streak_length: number;
        streak_max_length: number;
        streak_last_result_at: string | null;
        streak_hour_offset: number | null;
      }>(
        `SELECT uid, name, xp, last_result_at, streak_length, streak_max_length, streak_last_result_at,
                streak_hour_offset
         FROM users WHERE uid = ANY($1::text[]) ORDER BY uid FOR UPDATE`,
        [uids],
      );
      const accounts = new Map<string, ReplayAccount>(
        users.rows.map((u) => [
          u.uid,
          {
            uid: u.uid,
            name: u.name,
            xp: Number(u.xp),
            lastResultAt: u.last_result_at === null ? null : Number(u.last_result_at),
            streak: {
              length: u.streak_length,
              maxLength: u.streak_max_length,
              lastResultTimestamp: u.streak_last_result_at === null ? null : Number(u.streak_last_result_at),
              hourOffset: u.streak_hour_offset,
            },
          },
        ]),
      );
      const stored = await client.query<{ id: string }>('SELECT id FROM results WHERE id = ANY($1::text[])', [
        rows.map((r) => r.id),
      ]);
      const known = new Set(stored.rows.map((r) => r.id));
      const fresh = rows.filter((r) => !known.has(r.id) && accounts.has(r.uid));
      const present = [...accounts.keys()];
      const bests = await client.query<PbRow & { owner: string }>(
        `SELECT uid AS owner, ${PB_KEY}, wpm FROM personal_bests WHERE uid = ANY($1::text[])
         UNION ALL
         SELECT tag_id AS owner, ${PB_KEY}, wpm FROM tag_personal_bests WHERE uid = ANY($1::text[])`,
        [present],
      );
      const tags = await client.query<{ id: string; uid: string }>(
        'SELECT id, uid FROM tags WHERE uid = ANY($1::text[])',
        [present],
      );
      const tagsOf = new Map<string, Set<string>>();
      for (const t of tags.rows) (tagsOf.get(t.uid) ?? tagsOf.set(t.uid, new Set()).get(t.uid)!).add(t.id);
      const replayed = replay(fresh, {
        accounts,
        bests: bests.rows.map((b) => ({ owner: b.owner, bucket: bucketOf(b), wpm: Number(b.wpm) })),
        tagsOf,
      });
      if (replayed.rows.length > 0) {
        replayed.rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        await this.copy(client, 'results', replayed.rows);
        await this.applyReplay(client, replayed);
      }
      await client.query('COMMIT');
      return {
        inserted: replayed.rows.length,
        missingUser: rows.filter((r) => !accounts.has(r.uid)).map((r) => r.id),
      };
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  }

  private async applyReplay(client: pg.PoolClient, replayed: Replay): Promise<void> {
    const json = (value: unknown) => JSON.stringify(value);
    if (replayed.reviews.length > 0)
      await client.query(
        `INSERT INTO result_reviews (result_id, uid, reasons, key_timing, result, held_at)
         SELECT r.result_id, r.uid, r.reasons, NULL, r.result, r.held_at
         FROM json_to_recordset($1::json) AS r(result_id text, uid text, reasons jsonb, result jsonb, held_at bigint)`,
        [
          json(
            replayed.reviews.map((r) => ({
              result_id: r.resultId,
              uid: r.uid,
              reasons: r.hold.reasons,
              result: r.result,
              held_at: r.hold.heldAt,
            })),
          ),
        ],
      );
    const own = replayed.bests.filter((b) => b.owner === b.uid);
    const ofTags = replayed.bests.filter((b) => b.owner !== b.uid);
    // A new best only ever raises the stored one (the replay compared them); the trigger moves the boards.
    if (own.length > 0)
      await client.query(
        `INSERT INTO personal_bests (uid, ${PB_VALUES}, held_result_id)
         SELECT b.uid, ${PB_VALUES}, b.held_result_id
         FROM json_populate_recordset(NULL::personal_bests, $1::json) b
         ON CONFLICT (uid, ${PB_KEY}) DO UPDATE SET ${PB_UPDATE}, held_result_id = excluded.held_result_id
         WHERE excluded.wpm > personal_bests.wpm`,
        [json(own.map((b) => ({ uid: b.uid, ...b.row, held_result_id: b.heldResultId })))],
      );
    if (ofTags.length > 0)
      await client.query(
        `INSERT INTO tag_personal_bests (tag_id, uid, ${PB_VALUES})
         SELECT b.tag_id, b.uid, ${PB_VALUES}
         FROM json_populate_recordset(NULL::tag_personal_bests, $1::json) b
         ON CONFLICT (tag_id, ${PB_KEY}) DO UPDATE SET ${PB_UPDATE}
         WHERE excluded.wpm > tag_personal_bests.wpm`,
        [json(ofTags.map((b) => ({ tag_id: b.owner, uid: b.uid, ...b.row })))],
      );
    await client.query(
      `INSERT INTO test_activity (uid, day, tests)
       SELECT a.uid, a.day, a.tests FROM json_to_recordset($1::json) AS a(uid text, day int, tests int)
       ON CONFLICT (uid, day) DO UPDATE SET tests = test_activity.tests + excluded.tests`,
      [json(replayed.activity)],
    );
    // started_tests is int4: the sum saturates, as a submission's does.
    await client.query(
      `UPDATE users u SET
         completed_tests = u.completed_tests + a.completed,
         started_tests = LEAST(u.started_tests::int8 + a.started, 2147483647),
         time_typing = u.time_typing + a.typed,
         xp = u.xp + a.xp,
         streak_length = a.streak_length,
         streak_max_length = a.streak_max_length,
         streak_last_result_at = a.streak_last,
         last_result_at = GREATEST(coalesce(u.last_result_at, 0), a.last_result_at)
       FROM json_to_recordset($1::json) AS a(uid text, completed int, started int8, typed float8, xp int8,
         streak_length int, streak_max_length int, streak_last int8, last_result_at int8)
       WHERE u.uid = a.uid`,
      [
        json(
          replayed.accounts.map((a) => ({
            uid: a.uid,
            completed: a.completedTests,
            started: a.startedTests,
            typed: a.timeTyped,
            xp: a.xp,
            streak_length: a.streak.length,
            streak_max_length: a.streak.maxLength,
            streak_last: a.streak.lastResultTimestamp,
            last_result_at: a.lastResultAt,
          })),
        ),
      ],
    );
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
