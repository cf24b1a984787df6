import { Inject, Injectable } from '@nestjs/common';
import { sql, type Insertable, type Transaction } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { DB, Results } from '../../infra/database/database.types';

/** The bucket a personal best belongs to (the primary key of `personal_bests` after `uid`). */
export interface PbBucket {
  mode: string;
  mode2: string;
  language: string;
  difficulty: string;
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
}

export interface PbRecord {
  wpm: number;
  acc: number;
  raw: number;
  consistency: number;
  timestamp: number;
}

/** The submitting user's row, locked for the rest of the transaction. */
export interface LockedAccount {
  name: string;
  banned: boolean;
  lbOptOut: boolean;
  xp: number;
  timeTyping: number;
  streakLength: number;
  streakMaxLength: number;
  streakLastResultAt: number | null;
  streakHourOffset: number | null;
  lastResultAt: number | null;
  lastResultHashes: string[];
  badges: { id: number; selected?: boolean }[];
  premiumExpiresAt: number | null;
  chatId: string | null;
  chatAvatar: string | null;
  /** wpm of the personal best in the result's bucket, if any. */
  pbWpm: number | null;
  /** The result's tags that belong to the user, with their personal best in the bucket, if any. */
  ownedTags: { id: string; wpm: number | null }[];
}

export interface SubmissionWrites {
  uid: string;
  result: Insertable<Results>;
  bucket: PbBucket;
  /** The record the result would set; written where it is a new best. */
  pbRecord: PbRecord;
  /** The result beats the user's best in its bucket. */
  isPb: boolean;
  /** Tags whose best in the bucket the result beats. */
  tagPbIds: string[];
  account: {
    restartCount: number;
    timeTyped: number;
    xp: number;
    streakLength: number;
    streakMaxLength: number;
    timestamp: number;
    /** New list of remembered result hashes; null leaves it as it is. */
    lastResultHashes: string[] | null;
  };
  /** UTC days since the epoch. */
  activityDay: number;
}

const PB_KEY = ['mode', 'mode2', 'language', 'difficulty', 'punctuation', 'numbers', 'lazy_mode'] as const;

/**
 * The statements of a result submission. Every method takes the transaction the submit service opened: the user row is
 * locked first, so one user's submissions run one after another while different users never wait on each other.
 */
@Injectable()
export class SubmissionRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Runs `work` in one transaction (committed when it resolves, rolled back when it throws). */
  transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Outside the transaction: only needed to judge a low accuracy (opted-out users are exempt). */
  async isOptedOut(uid: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('lb_opt_out')
      .where('uid', '=', uid)
      .executeTakeFirst();
    return row?.lb_opt_out === true;
  }

  /**
   * Locks the user row (FOR UPDATE) and reads, in the same round trip, the personal best of the result's bucket and
   * which of the result's tags the user owns with their bests.
   */
  async lockAccount(
    trx: Transaction<DB>,
    uid: string,
    bucket: PbBucket,
    tagIds: string[],
  ): Promise<LockedAccount | undefined> {
    const row = await trx
      .selectFrom('users')
      .select((eb) => [
        'name',
        'banned',
        'lb_opt_out',
        'xp',
        'time_typing',
        'streak_length',
        'streak_max_length',
        'streak_last_result_at',
        'streak_hour_offset',
        'last_result_at',
        'last_result_hashes',
        'inventory_badges',
        'premium_expires_at',
        'chat_id',
        'chat_avatar',
        eb
          .selectFrom('personal_bests')
          .select('wpm')
          .where('personal_bests.uid', '=', uid)
          .where('mode', '=', bucket.mode)
          .where('mode2', '=', bucket.mode2)
          .where('language', '=', bucket.language)
          .where('difficulty', '=', bucket.difficulty)
          .where('punctuation', '=', bucket.punctuation)
          .where('numbers', '=', bucket.numbers)
          .where('lazy_mode', '=', bucket.lazyMode)
          .as('pb_wpm'),
        tagIds.length === 0
          ? sql<null>`null`.as('owned_tags')
          : eb
              .selectFrom('tags')
              .leftJoin('tag_personal_bests as tpb', (join) =>
                join
                  .onRef('tpb.tag_id', '=', 'tags.id')
                  .on('tpb.mode', '=', bucket.mode)
                  .on('tpb.mode2', '=', bucket.mode2)
                  .on('tpb.language', '=', bucket.language)
                  .on('tpb.difficulty', '=', bucket.difficulty)
                  .on('tpb.punctuation', '=', bucket.punctuation)
                  .on('tpb.numbers', '=', bucket.numbers)
                  .on('tpb.lazy_mode', '=', bucket.lazyMode),
              )
              .select(
                sql<
                  { id: string; wpm: number | null }[]
                >`json_agg(json_build_object('id', tags.id, 'wpm', tpb.wpm))`.as('t'),
              )
              .where('tags.uid', '=', uid)
              .where('tags.id', 'in', tagIds)
              .as('owned_tags'),
      ])
      .where('uid', '=', uid)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      name: row.name,
      banned: row.banned,
      lbOptOut: row.lb_opt_out,
      xp: row.xp,
      timeTyping: row.time_typing,
      streakLength: row.streak_length,
      streakMaxLength: row.streak_max_length,
      streakLastResultAt: row.streak_last_result_at,
      streakHourOffset: row.streak_hour_offset,
      lastResultAt: row.last_result_at,
      lastResultHashes: row.last_result_hashes,
      badges: Array.isArray(row.inventory_badges) ? (row.inventory_badges as LockedAccount['badges']) : [],
      premiumExpiresAt: row.premium_expires_at,
      chatId: row.chat_id,
      chatAvatar: row.chat_avatar,
      pbWpm: row.pb_wpm ?? null,
      ownedTags: row.owned_tags ?? [],
    };
  }

  /**
   * Every write of an accepted result in ONE statement (data-modifying CTEs): the result row, the personal best and
   * tag bests (upserts), the test-activity count of the day (upsert) and the user's stats, streak, XP and hashes.
   * Each part touches only this user's rows, and the user row is already locked, so concurrent users never deadlock.
   */
  async applySubmission(trx: Transaction<DB>, writes: SubmissionWrites): Promise<void> {
    const { uid, bucket, account } = writes;
    const key = {
      mode: bucket.mode,
      mode2: bucket.mode2,
      language: bucket.language,
      difficulty: bucket.difficulty,
      punctuation: bucket.punctuation,
      numbers: bucket.numbers,
      lazy_mode: bucket.lazyMode,
    };
    const parts = [sql`stored_result AS (${trx.insertInto('results').values(writes.result)})`];

    const record = writes.pbRecord;
    if (writes.isPb) {
      parts.push(
        sql`personal_best AS (${trx
          .insertInto('personal_bests')
          .values({ uid, ...key, ...record })
          .onConflict((oc) => oc.columns(['uid', ...PB_KEY]).doUpdateSet(record))})`,
      );
    }
    if (writes.tagPbIds.length > 0) {
      parts.push(
        sql`tag_bests AS (${trx
          .insertInto('tag_personal_bests')
          .values(writes.tagPbIds.map((tagId) => ({ tag_id: tagId, uid, ...key, ...record })))
          .onConflict((oc) => oc.columns(['tag_id', ...PB_KEY]).doUpdateSet(record))})`,
      );
    }

    parts.push(
      sql`activity AS (${trx
        .insertInto('test_activity')
        .values({ uid, day: writes.activityDay, tests: 1 })
        .onConflict((oc) =>
          oc.columns(['uid', 'day']).doUpdateSet((eb) => ({ tests: eb('test_activity.tests', '+', 1) })),
        )})`,
    );

    parts.push(
      sql`account AS (${trx
        .updateTable('users')
        .set((eb) => ({
          completed_tests: eb('completed_tests', '+', 1),
          started_tests: eb('started_tests', '+', account.restartCount + 1),
          time_typing: eb('time_typing', '+', account.timeTyped),
          xp: eb('xp', '+', account.xp),
          streak_length: account.streakLength,
          streak_max_length: account.streakMaxLength,
          streak_last_result_at: account.timestamp,
          last_result_at: account.timestamp,
          ...(account.lastResultHashes ? { last_result_hashes: account.lastResultHashes } : {}),
        }))
        .where('uid', '=', uid)})`,
    );

    await sql`WITH ${sql.join(parts)} SELECT 1`.execute(trx);
  }

  /** An unread mail still carrying the badge (rule 6: no second mail while one waits). */
  async hasUnreadBadgeMail(trx: Transaction<DB>, uid: string, badgeId: number): Promise<boolean> {
    const reward = JSON.stringify([{ type: 'badge', item: { id: badgeId } }]);
    const row = await trx
      .selectFrom('inbox_mail')
      .select('id')
      .where('uid', '=', uid)
      .where('read', '=', false)
      .where(sql<boolean>`rewards @> ${reward}::jsonb`)
      .executeTakeFirst();
    return row !== undefined;
  }
}
