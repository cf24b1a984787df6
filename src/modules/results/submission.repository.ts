import { Inject, Injectable } from '@nestjs/common';
import { sql, type Insertable, type Transaction } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { DB, Results } from '../../infra/database/database.types';
import { PreparedQuery } from '../../infra/database/prepared-query';
import type { Executor } from '../../infra/database/transaction';

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

type LockParameters = PbBucket & { uid: string };

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
  result: NewResultRow;
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

/** A stored result: every column given, so none is forgotten in the insert. */
export type NewResultRow = Required<Insertable<Results>>;

const RESULT_COLUMNS = [
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
] as const satisfies readonly (keyof Results)[];

// Personal-best columns after the owner (uid, or tag_id and uid), in the order the inserts give their values.
const PB_KEY = sql.raw('mode, mode2, language, difficulty, punctuation, numbers, lazy_mode');
const PB_COLUMNS = sql.raw(
  'mode, mode2, language, difficulty, punctuation, numbers, lazy_mode, wpm, acc, raw, consistency, timestamp',
);
const PB_UPDATE = sql.raw(
  'wpm = excluded.wpm, acc = excluded.acc, raw = excluded.raw, consistency = excluded.consistency, timestamp = excluded.timestamp',
);

/**
 * The statements of a result submission. Every method takes the transaction the submit service opened: the user row is
 * locked first, so one user's submissions run one after another while different users never wait on each other.
 */
@Injectable()
export class SubmissionRepository {
  private readonly lockWithoutTags;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.lockWithoutTags = new PreparedQuery(
      (p: LockParameters) => this.lockQuery(this.db, p, []),
      ['uid', 'mode', 'mode2', 'language', 'difficulty', 'punctuation', 'numbers', 'lazyMode'],
    );
  }

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

  /** The account read of a submission: the user row locked, its best in the bucket, the result's tags it owns. */
  private lockQuery(executor: Executor, p: LockParameters, tagIds: string[]) {
    return executor
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
          .where('personal_bests.uid', '=', p.uid)
          .where('mode', '=', p.mode)
          .where('mode2', '=', p.mode2)
          .where('language', '=', p.language)
          .where('difficulty', '=', p.difficulty)
          .where('punctuation', '=', p.punctuation)
          .where('numbers', '=', p.numbers)
          .where('lazy_mode', '=', p.lazyMode)
          .as('pb_wpm'),
        tagIds.length === 0
          ? sql<null>`null`.as('owned_tags')
          : eb
              .selectFrom('tags')
              .leftJoin('tag_personal_bests as tpb', (join) =>
                join
                  .onRef('tpb.tag_id', '=', 'tags.id')
                  .on('tpb.mode', '=', p.mode)
                  .on('tpb.mode2', '=', p.mode2)
                  .on('tpb.language', '=', p.language)
                  .on('tpb.difficulty', '=', p.difficulty)
                  .on('tpb.punctuation', '=', p.punctuation)
                  .on('tpb.numbers', '=', p.numbers)
                  .on('tpb.lazy_mode', '=', p.lazyMode),
              )
              .select(
                sql<
                  { id: string; wpm: number | null }[]
                >`json_agg(json_build_object('id', tags.id, 'wpm', tpb.wpm))`.as('t'),
              )
              .where('tags.uid', '=', p.uid)
              .where('tags.id', 'in', tagIds)
              .as('owned_tags'),
      ])
      .where('uid', '=', p.uid)
      .forUpdate();
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
    const parameters = { uid, ...bucket };
    // Most results carry no tags: that statement is built once; a tag list makes its own.
    const row =
      tagIds.length === 0
        ? (await trx.executeQuery(this.lockWithoutTags.with(parameters))).rows[0]
        : await this.lockQuery(trx, parameters, tagIds).executeTakeFirst();
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
   * Plain SQL rather than the query builder: this statement runs on every submission, and building it costs four
   * times as much CPU through the builder.
   */
  async applySubmission(trx: Transaction<DB>, writes: SubmissionWrites): Promise<void> {
    const { uid, bucket: b, pbRecord: pb, account } = writes;
    const parts = [
      sql`stored_result AS (
        INSERT INTO results (${sql.raw(RESULT_COLUMNS.join(', '))})
        VALUES (${sql.join(RESULT_COLUMNS.map((column) => writes.result[column]))}))`,
    ];
    if (writes.isPb) {
      parts.push(sql`personal_best AS (
        INSERT INTO personal_bests (uid, ${PB_COLUMNS})
        VALUES (${uid}, ${b.mode}, ${b.mode2}, ${b.language}, ${b.difficulty}, ${b.punctuation}, ${b.numbers},
                ${b.lazyMode}, ${pb.wpm}, ${pb.acc}, ${pb.raw}, ${pb.consistency}, ${pb.timestamp})
        ON CONFLICT (uid, ${PB_KEY}) DO UPDATE SET ${PB_UPDATE})`);
    }
    if (writes.tagPbIds.length > 0) {
      parts.push(sql`tag_bests AS (
        INSERT INTO tag_personal_bests (tag_id, uid, ${PB_COLUMNS})
        SELECT tag_id, ${uid}, ${b.mode}, ${b.mode2}, ${b.language}, ${b.difficulty}, ${b.punctuation}, ${b.numbers},
               ${b.lazyMode}, ${pb.wpm}, ${pb.acc}, ${pb.raw}, ${pb.consistency}, ${pb.timestamp}
        FROM unnest(${writes.tagPbIds}::text[]) AS tag_id
        ON CONFLICT (tag_id, ${PB_KEY}) DO UPDATE SET ${PB_UPDATE})`);
    }
    parts.push(sql`activity AS (
      INSERT INTO test_activity (uid, day, tests) VALUES (${uid}, ${writes.activityDay}, 1)
      ON CONFLICT (uid, day) DO UPDATE SET tests = test_activity.tests + 1)`);
    parts.push(sql`account AS (
      UPDATE users SET
        completed_tests = completed_tests + 1,
        started_tests = started_tests + ${account.restartCount + 1},
        time_typing = time_typing + ${account.timeTyped},
        xp = xp + ${account.xp},
        streak_length = ${account.streakLength},
        streak_max_length = ${account.streakMaxLength},
        streak_last_result_at = ${account.timestamp},
        last_result_at = ${account.timestamp},
        last_result_hashes = ${account.lastResultHashes ?? sql`last_result_hashes`}
      WHERE uid = ${uid})`);
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
