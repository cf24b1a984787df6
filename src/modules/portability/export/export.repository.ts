import { Inject, Injectable } from '@nestjs/common';
import { sql, type ControlledTransaction, type RawBuilder, type Selectable } from 'kysely';
import { DATABASE, type Database } from '../../../infra/database/database';
import type { DB, Users } from '../../../infra/database/database.types';
import { PERSONAL_BEST_COLUMNS } from '../../users/personal-bests';
import { RESULT_FIELDS, type ResultFieldKind } from './result-line';

export type UserRow = Omit<Selectable<Users>, 'last_result_hashes'>;

const USER_COLUMNS = [
  'uid',
  'name',
  'email',
  'added_at',
  'last_name_change_at',
  'banned',
  'lb_opt_out',
  'can_report',
  'can_manage_ape_keys',
  'xp',
  'completed_tests',
  'started_tests',
  'time_typing',
  'streak_length',
  'streak_max_length',
  'streak_last_result_at',
  'streak_hour_offset',
  'last_result_at',
  'profile_bio',
  'profile_keyboard',
  'profile_social_profiles',
  'profile_show_activity',
  'inventory_badges',
  'premium_start_at',
  'premium_expires_at',
  'chat_id',
  'chat_avatar',
  'favorite_quotes',
  'lb_memory',
] as const satisfies readonly (keyof UserRow)[];

/** A column's value as JSON text (`null` for NULL). */
function jsonText(column: string, kind: ResultFieldKind): RawBuilder<string> {
  const ref = sql.ref(column);
  switch (kind) {
    case 'text':
      return sql`coalesce(to_json(${ref})::text, 'null')`;
    case 'boolean':
      return sql`CASE WHEN ${ref} THEN 'true' WHEN NOT ${ref} THEN 'false' ELSE 'null' END`;
    case 'array':
      return sql`coalesce(array_to_json(${ref})::text, 'null')`;
    default:
      // Numbers print in PostgreSQL's shortest exact form (extra_float_digits 1); jsonb as its JSON text.
      return sql`coalesce(${ref}::text, 'null')`;
  }
}

/**
 * A result's record data as JSON text, written by PostgreSQL in RESULT_FIELDS order: it formats every value as text
 * for the wire anyway, so concatenating them costs it little, and the server then receives one string per result
 * instead of parsing thirty-one columns into an object and serialising it again.
 */
const RESULT_JSON = sql<string>`'{' || ${sql.join(
  RESULT_FIELDS.map(
    ([field, column, kind], i) =>
      sql`${sql.lit(`${i === 0 ? '' : ','}${JSON.stringify(field)}:`)} || ${jsonText(column, kind)}`,
  ),
  sql` || `,
)} || '}'`;

const CURSOR = 'account_export_results';

/**
 * One account's rows as of one instant: every read runs in the same REPEATABLE READ, READ ONLY transaction, so an
 * export is a consistent snapshot however long the client takes to read it (a result saved meanwhile is in neither
 * the results nor the counters). Results come through a server-side cursor in key order, a page at a time, so
 * memory stays flat for any number of them. Every method is scoped to `uid`. `close()` ends the transaction and
 * returns the connection; it is safe to call twice.
 */
export class ExportSnapshot {
  private closing: Promise<void> | null = null;

  constructor(private readonly trx: ControlledTransaction<DB>) {}

  async user(uid: string): Promise<UserRow | undefined> {
    return this.trx.selectFrom('users').select(USER_COLUMNS).where('uid', '=', uid).executeTakeFirst();
  }

  async permissions(uid: string) {
    return this.trx
      .selectFrom('user_permissions')
      .select(['permission', 'granted_at'])
      .where('uid', '=', uid)
      .orderBy('permission')
      .execute();
  }

  async personalBests(uid: string) {
    return this.trx
      .selectFrom('personal_bests')
      .select([...PERSONAL_BEST_COLUMNS, 'held_result_id'])
      .where('uid', '=', uid)
      .orderBy('mode')
      .orderBy('mode2')
      .orderBy('language')
      .orderBy('difficulty')
      .orderBy('punctuation')
      .orderBy('numbers')
      .orderBy('lazy_mode')
      .execute();
  }

  async tags(uid: string) {
    return this.trx
      .selectFrom('tags')
      .select(['id', 'name', 'created_at'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async tagPersonalBests(uid: string) {
    return this.trx
      .selectFrom('tag_personal_bests')
      .select(['tag_id', ...PERSONAL_BEST_COLUMNS])
      .where('uid', '=', uid)
      .orderBy('tag_id')
      .orderBy('mode')
      .orderBy('mode2')
      .orderBy('language')
      .orderBy('difficulty')
      .orderBy('punctuation')
      .orderBy('numbers')
      .orderBy('lazy_mode')
      .execute();
  }

  async presets(uid: string) {
    return this.trx
      .selectFrom('presets')
      .select(['id', 'name', 'config', 'setting_groups', 'created_at'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async config(uid: string) {
    return this.trx
      .selectFrom('user_configs')
      .select(['config', 'updated_at'])
      .where('uid', '=', uid)
      .executeTakeFirst();
  }

  async customThemes(uid: string) {
    return this.trx
      .selectFrom('custom_themes')
      .select(['id', 'name', 'colors', 'created_at'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async resultFilterPresets(uid: string) {
    return this.trx
      .selectFrom('result_filter_presets')
      .select(['id', 'name', 'filters', 'created_at'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async inbox(uid: string) {
    return this.trx
      .selectFrom('inbox_mail')
      .select(['id', 'subject', 'body', 'rewards', 'timestamp', 'read'])
      .where('uid', '=', uid)
      .orderBy('timestamp')
      .orderBy('id')
      .execute();
  }

  /** Both directions; the names are both users' current ones (as GET /connections shows them). */
  async connections(uid: string) {
    return this.trx
      .selectFrom('connections')
      .innerJoin('users as i', 'i.uid', 'connections.initiator_uid')
      .innerJoin('users as r', 'r.uid', 'connections.receiver_uid')
      .select([
        'connections.id',
        'connections.initiator_uid',
        'i.name as initiator_name',
        'connections.receiver_uid',
        'r.name as receiver_name',
        'connections.status',
        'connections.created_at',
        'connections.last_modified',
      ])
      .where((eb) =>
        eb.or([eb('connections.initiator_uid', '=', uid), eb('connections.receiver_uid', '=', uid)]),
      )
      .orderBy('connections.created_at')
      .orderBy('connections.id')
      .execute();
  }

  /** Metadata only: the hash never leaves the table. */
  async apeKeys(uid: string) {
    return this.trx
      .selectFrom('ape_keys')
      .select(['id', 'name', 'enabled', 'created_on', 'modified_on', 'last_used_on'])
      .where('uid', '=', uid)
      .orderBy('created_on')
      .orderBy('id')
      .execute();
  }

  async testActivity(uid: string) {
    return this.trx
      .selectFrom('test_activity')
      .select(['day', 'tests'])
      .where('uid', '=', uid)
      .orderBy('day')
      .execute();
  }

  async quoteRatings(uid: string) {
    return this.trx
      .selectFrom('user_quote_ratings')
      .select(['language', 'quote_id', 'rating'])
      .where('uid', '=', uid)
      .orderBy('language')
      .orderBy('quote_id')
      .execute();
  }

  async quoteSubmissions(uid: string) {
    return this.trx
      .selectFrom('new_quotes')
      .select(['id', 'text', 'source', 'language', 'submitted_at'])
      .where('uid', '=', uid)
      .orderBy('submitted_at')
      .orderBy('id')
      .execute();
  }

  async reports(uid: string) {
    return this.trx
      .selectFrom('quote_reports')
      .select(['id', 'type', 'content_id', 'quote_id', 'quote_language', 'reason', 'comment', 'created_at'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  /** Approved quotes the account submitted or approved (the approver's name is left out: see OMITTED_COLUMNS). */
  async approvedQuotes(uid: string) {
    return this.trx
      .selectFrom('quotes')
      .select([
        'language',
        'id',
        'text',
        'source',
        'length',
        'approved_at',
        'submitted_by',
        'approved_by_uid',
      ])
      .where((eb) => eb.or([eb('submitted_by', '=', uid), eb('approved_by_uid', '=', uid)]))
      .orderBy('approved_at')
      .orderBy('language')
      .orderBy('id')
      .execute();
  }

  /** The account's results the anti-cheat refused, as the quarantine keeps them (the body as received). */
  async refusedResults(uid: string) {
    return this.trx
      .selectFrom('refused_results')
      .select(['id', 'refused_at', 'status', 'check_name', 'figures', 'body', 'client_version'])
      .where('uid', '=', uid)
      .orderBy('refused_at')
      .orderBy('id')
      .execute();
  }

  /** The account's own results in the review queue; the deciding moderator is left out (see OMITTED_COLUMNS). */
  async resultReviews(uid: string) {
    return this.trx
      .selectFrom('result_reviews')
      .select([
        'result_id',
        'status',
        'reasons',
        'key_timing',
        'result',
        'held_at',
        'decided_at',
        'decision_reason',
      ])
      .where('uid', '=', uid)
      .orderBy('held_at')
      .orderBy('result_id')
      .execute();
  }

  async countResults(uid: string): Promise<number> {
    const row = await this.trx
      .selectFrom('results')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Oldest first, ties by id: one index scan for the whole history, read `fetchResults` pages at a time, each result
   * as its record's JSON text. `extra_float_digits` 1 (PostgreSQL's default, pinned for this transaction): every
   * float prints as the shortest text that reads back exactly.
   */
  async openResults(uid: string): Promise<void> {
    await sql`SET LOCAL extra_float_digits = 1`.execute(this.trx);
    await sql`DECLARE ${sql.id(CURSOR)} NO SCROLL CURSOR FOR
      SELECT ${RESULT_JSON} AS data FROM results
      WHERE uid = ${uid} ORDER BY timestamp, id`.execute(this.trx);
  }

  async fetchResults(count: number): Promise<string[]> {
    const { rows } = await sql<{
      data: string;
    }>`FETCH FORWARD ${sql.lit(count)} FROM ${sql.id(CURSOR)}`.execute(this.trx);
    return rows.map((row) => row.data);
  }

  /**
   * Ends the read-only transaction (nothing to commit) and returns the connection to the pool; every call waits for
   * the same ending, which never fails (a connection the server dropped is released all the same).
   */
  close(): Promise<void> {
    this.closing ??= this.trx
      .rollback()
      .execute()
      .catch(() => undefined);
    return this.closing;
  }
}

@Injectable()
export class ExportRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** The account a uid, or else a name (case-insensitively, like the unique index), names. */
  async resolveUid(uidOrName: string): Promise<string | undefined> {
    const byUid = await this.db
      .selectFrom('users')
      .select('uid')
      .where('uid', '=', uidOrName)
      .executeTakeFirst();
    if (byUid) return byUid.uid;
    const byName = await this.db
      .selectFrom('users')
      .select('uid')
      .where(sql`lower(name)`, '=', uidOrName.toLowerCase())
      .executeTakeFirst();
    return byName?.uid;
  }

  async openSnapshot(): Promise<ExportSnapshot> {
    const trx = await this.db
      .startTransaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute();
    return new ExportSnapshot(trx);
  }
}
