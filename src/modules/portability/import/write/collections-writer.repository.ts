import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../../../infra/database/database';
import type { Executor } from '../../../../infra/database/transaction';
import type { ImportRecords, RecordKind } from '../import-records';
import { existingKeys, insertRows } from './rows';

/** How one kind of record lands: its table and columns, its key, and the users it needs. */
export interface TableSpec {
  table: string;
  columns: readonly string[];
  /** The column that identifies a row in reports (unique per source document). */
  key: string;
  /** Columns holding uids that must exist here. */
  users: readonly string[];
  /**
   * A record about another row that must be the same user's: `column` names the row (by `table`'s `key`), whose
   * `owner` column must equal the record's `users[0]`. A record about a row that is not there, or another user's, is
   * refused (a review record naming another user's result must not touch it).
   */
  about?: { column: string; table: string; key: string; owner: string };
}

export const TABLES: Readonly<Record<Exclude<RecordKind, 'users' | 'results'>, TableSpec>> = {
  configs: { table: 'user_configs', columns: ['uid', 'config', 'updated_at'], key: 'uid', users: ['uid'] },
  presets: {
    table: 'presets',
    columns: ['id', 'uid', 'name', 'config', 'setting_groups', 'created_at'],
    key: 'id',
    users: ['uid'],
  },
  connections: {
    table: 'connections',
    columns: ['id', 'initiator_uid', 'receiver_uid', 'status', 'created_at', 'last_modified'],
    key: 'id',
    users: ['initiator_uid', 'receiver_uid'],
  },
  apeKeys: {
    table: 'ape_keys',
    columns: [
      'id',
      'uid',
      'name',
      'enabled',
      'hash',
      'hash_scheme',
      'created_on',
      'modified_on',
      'last_used_on',
    ],
    key: 'id',
    users: ['uid'],
  },
  blocklist: { table: 'blocklist', columns: ['kind', 'hash', 'created_at'], key: 'hash', users: [] },
  newQuotes: {
    table: 'new_quotes',
    columns: ['id', 'uid', 'text', 'source', 'language', 'submitted_at'],
    key: 'id',
    users: ['uid'],
  },
  quoteRatings: {
    table: 'quote_ratings',
    columns: ['id', 'language', 'quote_id', 'ratings', 'total_rating'],
    key: 'id',
    users: [],
  },
  reports: {
    table: 'quote_reports',
    columns: [
      'id',
      'uid',
      'type',
      'content_id',
      'quote_id',
      'quote_language',
      'reason',
      'comment',
      'created_at',
    ],
    key: 'id',
    users: ['uid'],
  },
  psas: {
    table: 'psas',
    columns: ['id', 'message', 'date', 'level', 'sticky', 'created_at'],
    key: 'id',
    users: [],
  },
  permissions: {
    table: 'user_permissions',
    columns: ['uid', 'permission', 'granted_at'],
    key: 'uid',
    users: ['uid'],
  },
  resultReviews: {
    table: 'result_reviews',
    columns: [
      'result_id',
      'uid',
      'status',
      'reasons',
      'key_timing',
      'result',
      'held_at',
      'decided_by',
      'decided_at',
      'decision_reason',
    ],
    key: 'result_id',
    users: ['uid'],
    about: { column: 'result_id', table: 'results', key: 'id', owner: 'uid' },
  },
};

export type TableKind = keyof typeof TABLES;

/** Every kind but users and results: plain idempotent multi-row inserts, refusing rows whose users are missing. */
@Injectable()
export class CollectionsWriterRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** The uids among `uids` that exist here. */
  existingUsers(uids: readonly string[], executor: Executor = this.db): Promise<Set<string>> {
    return existingKeys(executor, 'users', 'uid', [...new Set(uids)]);
  }

  /** Who holds these (lower-cased) names and chat ids here (dry runs). */
  async holders(names: string[], chatIds: string[]) {
    const byName = await sql<{ uid: string; key: string }>`
      SELECT uid, lower(name) AS key FROM users WHERE lower(name) = ANY(${names}::text[])`.execute(this.db);
    const byChat = await sql<{ uid: string; key: string }>`
      SELECT uid, chat_id AS key FROM users WHERE chat_id = ANY(${chatIds}::text[])`.execute(this.db);
    return {
      names: new Map(byName.rows.map((r) => [r.key, r.uid])),
      chatIds: new Map(byChat.rows.map((r) => [r.key, r.uid])),
    };
  }

  /** Keys of `spec` already stored (dry runs). */
  existing(spec: TableSpec, keys: readonly string[]): Promise<Set<string>> {
    return existingKeys(this.db, spec.table, spec.key, keys);
  }

  /** Of `pairs` (the row a record is about, and the record's user), those whose row is that user's. */
  async owned(
    spec: TableSpec,
    pairs: { row: string; uid: string }[],
    executor: Executor,
  ): Promise<Set<string>> {
    const about = spec.about;
    if (about === undefined || pairs.length === 0) return new Set();
    const result = await sql<{ key: string; owner: string }>`
      SELECT ${sql.ref(about.key)}::text AS key, ${sql.ref(about.owner)}::text AS owner FROM ${sql.table(about.table)}
      WHERE ${sql.ref(about.key)}::text = ANY(${pairs.map((p) => p.row)}::text[])`.execute(executor);
    return new Set(result.rows.map((r) => `${r.key}\u0000${r.owner}`));
  }

  /** Inserts the rows (their users and what they are about checked by the caller); returns the keys inserted. */
  async insert<K extends TableKind>(kind: K, rows: ImportRecords[K][], trx: Executor): Promise<string[]> {
    const spec = TABLES[kind];
    const conditions = spec.users.map(
      (c) => sql`EXISTS (SELECT 1 FROM users u WHERE u.uid = ${sql.ref(`i.${c}`)})`,
    );
    const about = spec.about;
    if (about !== undefined)
      conditions.push(
        sql`EXISTS (SELECT 1 FROM ${sql.table(about.table)} a WHERE a.${sql.ref(about.key)} = ${sql.ref(`i.${about.column}`)}
          AND a.${sql.ref(about.owner)} = ${sql.ref(`i.${spec.users[0]!}`)})`,
      );
    const where = conditions.length > 0 ? sql.join(conditions, sql` AND `) : undefined;
    return insertRows(trx, spec.table, spec.columns, rows as object[], spec.key, where);
  }
}
