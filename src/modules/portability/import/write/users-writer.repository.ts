import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../../../infra/database/database';
import type { Executor } from '../../../../infra/database/transaction';
import { PERSONAL_BEST_COLUMNS } from '../../../users/personal-bests';
import { replacementName } from '../original/users';
import type { QuoteRatingByUser, Sourced, UserBundle } from '../import-records';
import type { AdjustedRecord } from './import-writer';
import { existingKeys, insertRows } from './rows';

const USER_COLUMNS = [
  'uid',
  'name',
  'email',
  'added_at',
  'banned',
  'lb_opt_out',
  'last_name_change_at',
  'completed_tests',
  'started_tests',
  'time_typing',
  'xp',
  'streak_length',
  'streak_max_length',
  'streak_last_result_at',
  'streak_hour_offset',
  'last_result_hashes',
  'chat_id',
  'chat_avatar',
  'profile_bio',
  'profile_keyboard',
  'profile_social_profiles',
  'profile_show_activity',
  'inventory_badges',
  'favorite_quotes',
  'premium_start_at',
  'premium_expires_at',
  'lb_memory',
  'can_report',
  'can_manage_ape_keys',
] as const;
const PB_COLUMNS = ['uid', ...PERSONAL_BEST_COLUMNS] as const;

export interface UsersWritten {
  inserted: Set<string>;
  /** Already here (an earlier run, or an account made here): nothing of theirs was written. */
  existing: Set<string>;
  adjusted: AdjustedRecord[];
}

/** The users of a batch and everything nested in them, in the caller's transaction. */
@Injectable()
export class UsersWriterRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  transaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Names (lower-cased) and chat ids held here by someone else, for the batch's candidates. */
  private async holders(trx: Executor, names: string[], chatIds: string[]) {
    const byName = new Map<string, string>();
    const byChat = new Map<string, string>();
    if (names.length > 0) {
      const rows = await sql<{ uid: string; lname: string }>`
        SELECT uid, lower(name) AS lname FROM users WHERE lower(name) = ANY(${names}::text[])`.execute(trx);
      for (const r of rows.rows) byName.set(r.lname, r.uid);
    }
    if (chatIds.length > 0) {
      const rows = await sql<{ uid: string; chat_id: string }>`
        SELECT uid, chat_id FROM users WHERE chat_id = ANY(${chatIds}::text[])`.execute(trx);
      for (const r of rows.rows) byChat.set(r.chat_id, r.uid);
    }
    return { byName, byChat };
  }

  private async nameFree(trx: Executor, name: string): Promise<boolean> {
    const row = await sql`SELECT 1 FROM users WHERE lower(name) = ${name.toLowerCase()}`.execute(trx);
    return row.rows.length === 0;
  }

  /**
   * Inserts the users not here yet, then their nested rows. A name taken here (case-insensitively, as our unique
   * index) by another account gets a replacement the user may change at once; a chat account linked to another
   * account here is not linked. Both are reported as adjustments.
   */
  async write(batch: Sourced<UserBundle>[], now: number, trx: Executor): Promise<UsersWritten> {
    const adjusted: AdjustedRecord[] = [];
    const existing = await existingKeys(
      trx,
      'users',
      'uid',
      batch.map((b) => b.row.user.uid),
    );
    const candidates: Sourced<UserBundle>[] = [];
    const seen = new Set<string>(existing);
    for (const item of batch) {
      if (seen.has(item.row.user.uid)) continue;
      seen.add(item.row.user.uid);
      candidates.push(item);
    }
    const { byName, byChat } = await this.holders(
      trx,
      candidates.map((c) => c.row.user.name.toLowerCase()),
      candidates.flatMap((c) => (c.row.user.chat_id === null ? [] : [c.row.user.chat_id])),
    );
    const rows = [];
    for (const { source, row } of candidates) {
      const user = { ...row.user };
      const holder = byName.get(user.name.toLowerCase());
      if (holder !== undefined && holder !== user.uid) {
        const taken = user.name;
        let attempt = 1;
        do user.name = replacementName(user.uid, attempt++);
        while (byName.has(user.name.toLowerCase()) || !(await this.nameFree(trx, user.name)));
        user.last_name_change_at = null;
        adjusted.push({
          source,
          adjustment: {
            path: 'name',
            action: 'changed',
            reason: `taken here: renamed to ${user.name}`,
            value: taken,
          },
        });
      }
      byName.set(user.name.toLowerCase(), user.uid);
      if (user.chat_id !== null) {
        const owner = byChat.get(user.chat_id);
        if (owner !== undefined && owner !== user.uid) {
          adjusted.push({
            source,
            adjustment: {
              path: 'discordId',
              action: 'left out',
              reason: 'this chat account is linked to another account here',
              value: user.chat_id,
            },
          });
          user.chat_id = null;
          user.chat_avatar = null;
        } else byChat.set(user.chat_id, user.uid);
      }
      rows.push(user);
    }
    const inserted = new Set(await insertRows(trx, 'users', USER_COLUMNS, rows, 'uid'));
    await this.writeNested(
      candidates.filter((c) => inserted.has(c.row.user.uid)).map((c) => c.row),
      now,
      trx,
    );
    return { inserted, existing, adjusted };
  }

  private async writeNested(bundles: UserBundle[], now: number, trx: Executor): Promise<void> {
    const of = <T extends object>(pick: (b: UserBundle) => T[]) =>
      bundles.flatMap((b) => pick(b).map((row) => ({ uid: b.user.uid, ...row })));
    await insertRows(
      trx,
      'personal_bests',
      [...PB_COLUMNS, 'held_result_id'],
      of((b) => b.personalBests),
      'uid',
    );
    const tagIds = new Set(
      await insertRows(
        trx,
        'tags',
        ['id', 'uid', 'name', 'created_at'],
        of((b) => b.tags),
        'id',
      ),
    );
    const tagBests = bundles.flatMap((b) =>
      b.tags
        .filter((t) => tagIds.has(t.id))
        .flatMap((t) => t.personalBests.map((pb) => ({ ...pb, tag_id: t.id, uid: b.user.uid }))),
    );
    await insertRows(trx, 'tag_personal_bests', ['tag_id', ...PB_COLUMNS], tagBests, 'tag_id');
    await insertRows(
      trx,
      'custom_themes',
      ['id', 'uid', 'name', 'colors', 'created_at'],
      of((b) => b.themes),
      'id',
    );
    await insertRows(
      trx,
      'inbox_mail',
      ['id', 'uid', 'subject', 'body', 'rewards', 'timestamp', 'read'],
      of((b) => b.mail),
      'id',
    );
    await insertRows(
      trx,
      'result_filter_presets',
      ['id', 'uid', 'name', 'filters', 'created_at'],
      of((b) => b.filterPresets),
      'id',
    );
    await insertRows(
      trx,
      'test_activity',
      ['uid', 'day', 'tests'],
      of((b) => b.testActivity ?? []),
      'uid',
    );
    await insertRows(
      trx,
      'user_permissions',
      ['uid', 'permission', 'granted_at'],
      of((b) => b.permissions.map((permission) => ({ permission, granted_at: now }))),
      'uid',
    );
    await insertRows(
      trx,
      'user_quote_ratings',
      ['uid', 'language', 'quote_id', 'rating'],
      of((b) => (b.countQuoteRatings ? [] : b.quoteRatings)),
      'uid',
    );
    await this.addRatings(
      trx,
      of((b) => (b.countQuoteRatings ? b.quoteRatings : [])),
    );
  }

  /**
   * The users' own ratings, added to the quotes' aggregates as a first rating adds itself (QuoteRatingsRepository):
   * a later change of rating here then moves the aggregate by the difference, as it does for ratings made here. Only
   * the rows inserted count (the users are new, so all of them).
   */
  private async addRatings(trx: Executor, ratings: (QuoteRatingByUser & { uid: string })[]): Promise<void> {
    if (ratings.length === 0) return;
    await sql`
      WITH added AS (
        INSERT INTO user_quote_ratings (uid, language, quote_id, rating)
        SELECT i.uid, i.language, i.quote_id, i.rating
        FROM json_populate_recordset(NULL::user_quote_ratings, ${JSON.stringify(ratings)}::json) i
        ON CONFLICT DO NOTHING
        RETURNING language, quote_id, rating
      )
      INSERT INTO quote_ratings (id, language, quote_id, ratings, total_rating)
      SELECT left(md5(random()::text || language || quote_id::text), 24), language, quote_id, count(*), sum(rating)
      FROM added GROUP BY language, quote_id
      ON CONFLICT (language, quote_id) DO UPDATE
        SET ratings = quote_ratings.ratings + EXCLUDED.ratings,
            total_rating = quote_ratings.total_rating + EXCLUDED.total_rating`.execute(trx);
  }
}
