import { Inject, Injectable } from '@nestjs/common';
import { sql, type ExpressionBuilder, type Insertable, type Transaction } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { DB, Results } from '../../infra/database/database.types';
import { PreparedQuery } from '../../infra/database/prepared-query';
import type { Executor } from '../../infra/database/transaction';
import {
  WRITE_SHAPES,
  WRITE_VALUE_NAMES,
  writeShape,
  writeStatement,
  writeValues,
  type WriteValues,
} from './submission-write.statement';

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
  /** That personal best comes from a result held off the boards (or rejected there). */
  pbHeld: boolean;
  /** The result's tags that belong to the user, with their personal best in the bucket, if any. */
  ownedTags: { id: string; wpm: number | null }[];
}

export interface SubmissionWrites {
  uid: string;
  result: NewResultRow;
  bucket: PbBucket;
  /** The record the result would set; written where it is a new best. */
  pbRecord: PbRecord;
  /** The result is held for review: a personal best it sets stays off the boards (personal_bests.held_result_id). */
  heldResultId: string | null;
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

/**
 * The statements of a result submission. Every method takes the transaction the submit service opened: the user row is
 * locked first, so one user's submissions run one after another while different users never wait on each other.
 */
@Injectable()
export class SubmissionRepository {
  private readonly lockWithoutTags;
  /** The write statement in each of its shapes (personal best or not, tag bests or not). */
  private readonly writeStatements;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.lockWithoutTags = new PreparedQuery(
      (p: LockParameters) => this.lockQuery(this.db, p, []),
      ['uid', 'mode', 'mode2', 'language', 'difficulty', 'punctuation', 'numbers', 'lazyMode'],
    );
    this.writeStatements = WRITE_SHAPES.map(
      ({ isPb, tagBests }) =>
        new PreparedQuery(
          (values: WriteValues) => ({
            compile: () => writeStatement(values, isPb, tagBests).compile(this.db),
          }),
          WRITE_VALUE_NAMES,
        ),
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
    const pbOf = (eb: ExpressionBuilder<DB, 'users'>) =>
      eb
        .selectFrom('personal_bests')
        .where('personal_bests.uid', '=', p.uid)
        .where('mode', '=', p.mode)
        .where('mode2', '=', p.mode2)
        .where('language', '=', p.language)
        .where('difficulty', '=', p.difficulty)
        .where('punctuation', '=', p.punctuation)
        .where('numbers', '=', p.numbers)
        .where('lazy_mode', '=', p.lazyMode);
    // The bucket's best and its review hold come from one probe of the personal bests' key (a lateral join, at most
    // one row); only the user row is locked, the outer join's nullable side cannot be.
    return executor
      .selectFrom('users')
      .leftJoinLateral(
        (eb) => pbOf(eb).select(['wpm as pb_wpm', 'held_result_id as pb_held_result_id']).as('pb'),
        (join) => join.onTrue(),
      )
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
        'pb.pb_wpm',
        // Not null when the best comes from a result held off the boards (review queue).
        'pb.pb_held_result_id',
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
      .where('users.uid', '=', p.uid)
      .forUpdate('users');
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
      pbHeld: (row.pb_held_result_id ?? null) !== null,
      ownedTags: row.owned_tags ?? [],
    };
  }

  /**
   * Every write of an accepted result in ONE statement (see submission-write.statement.ts). It runs on every
   * submission: plain SQL rather than the query builder, built once per shape and prepared on each connection.
   */
  async applySubmission(trx: Transaction<DB>, writes: SubmissionWrites): Promise<void> {
    const statement = this.writeStatements[writeShape(writes.isPb, writes.tagPbIds.length > 0)];
    if (!statement) throw new Error('no write statement of that shape');
    await trx.executeQuery(statement.with(writeValues(writes)));
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
