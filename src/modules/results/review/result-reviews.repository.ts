import { Inject, Injectable } from '@nestjs/common';
import { sql, type Transaction } from 'kysely';
import { DATABASE, type Database } from '../../../infra/database/database';
import type { DB } from '../../../infra/database/database.types';
import type { Executor } from '../../../infra/database/transaction';
import type { HoldReason } from '../domain/anti-cheat/review-ceiling';
import type { KeyTimingSummary } from '../domain/anti-cheat/key-timing-summary';
import type { CompletedResultDto } from '../dto/completed-result.dto';
import type { PbBucket, PbRecord } from '../submission.repository';

/** What the boards need of a held result, kept with it (the user may delete their results meanwhile). */
export interface HeldResultFacts extends PbBucket {
  mode: CompletedResultDto['mode'];
  funbox: string[];
  bailedOut: boolean;
  stopOnLetter: boolean;
  wpm: number;
  rawWpm: number;
  acc: number;
  consistency: number;
  testDuration: number;
  afkDuration: number;
  incompleteTestSeconds: number;
  /** Server time the result was stored with. */
  timestamp: number;
  xp: number;
  /** The result could be a personal best (funboxes, not abandoned): it may enter the all-time boards. */
  pbAllowed: boolean;
}

export interface HeldResult {
  resultId: string;
  uid: string;
  name: string;
  heldAt: number;
  reasons: HoldReason[];
  keyTiming: KeyTimingSummary | null;
  result: HeldResultFacts;
}

export type ReviewDecision = 'approved' | 'rejected';

/** The user as the boards show them, now (an approved result enters the boards with the user's current facts). */
export interface BoardAccount {
  uid: string;
  name: string;
  banned: boolean;
  lbOptOut: boolean;
  timeTyping: number;
  premiumExpiresAt: number | null;
  badges: unknown;
  chatId: string | null;
  chatAvatar: string | null;
  streak: number;
}

/** The review queue (`result_reviews`) and the board bests its decisions move. */
@Injectable()
export class ResultReviewsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** A decision's one transaction (committed when `work` resolves, rolled back when it throws). */
  transaction<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Inside the submission's transaction: the result waits for a moderator. */
  async hold(trx: Transaction<DB>, held: Omit<HeldResult, 'name'>): Promise<void> {
    await trx
      .insertInto('result_reviews')
      .values({
        result_id: held.resultId,
        uid: held.uid,
        reasons: JSON.stringify(held.reasons),
        key_timing: held.keyTiming === null ? null : JSON.stringify(held.keyTiming),
        result: JSON.stringify(held.result),
        held_at: held.heldAt,
      })
      .execute();
  }

  /**
   * A result that may be on the boards, under a personal best that may not: it becomes the user's board entry where
   * it beats the one there, and the change is queued for the live ranks (`leaderboard_offer_best`, migration
   * 20261126100000).
   */
  async offerBoardBest(executor: Executor, uid: string, bucket: PbBucket, record: PbRecord): Promise<void> {
    await sql`SELECT leaderboard_offer_best(${uid}, ${bucket.language}, ${bucket.mode}, ${bucket.mode2},
      ${bucket.difficulty}, ${bucket.punctuation}, ${bucket.numbers}, ${bucket.lazyMode}, ${record.wpm}::float8,
      ${record.acc}::float8, ${record.raw}::float8, ${record.consistency}::float8, ${record.timestamp}::bigint)`.execute(
      executor,
    );
  }

  /** Held results, oldest first, with the queue's length. */
  async listHeld(limit: number, offset: number): Promise<{ count: number; held: HeldResult[] }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('result_reviews as r')
        .innerJoin('users as u', 'u.uid', 'r.uid')
        .select(['r.result_id', 'r.uid', 'u.name', 'r.held_at', 'r.reasons', 'r.key_timing', 'r.result'])
        .where('r.status', '=', 'held')
        .orderBy('r.held_at')
        .orderBy('r.result_id')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.countHeld(),
    ]);
    return {
      count,
      held: rows.map((row) => ({
        resultId: row.result_id,
        uid: row.uid,
        name: row.name,
        heldAt: row.held_at,
        reasons: row.reasons as unknown as HoldReason[],
        keyTiming: row.key_timing as unknown as KeyTimingSummary | null,
        result: row.result as unknown as HeldResultFacts,
      })),
    };
  }

  async countHeld(): Promise<number> {
    const row = await this.db
      .selectFrom('result_reviews')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('status', '=', 'held')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Locks the given results that are still held (a decision is made once). */
  async lockHeld(trx: Transaction<DB>, resultIds: string[]): Promise<Omit<HeldResult, 'name'>[]> {
    const rows = await trx
      .selectFrom('result_reviews')
      .select(['result_id', 'uid', 'held_at', 'reasons', 'key_timing', 'result'])
      .where('result_id', 'in', resultIds)
      .where('status', '=', 'held')
      .forUpdate()
      .execute();
    return rows.map((row) => ({
      resultId: row.result_id,
      uid: row.uid,
      heldAt: row.held_at,
      reasons: row.reasons as unknown as HoldReason[],
      keyTiming: row.key_timing as unknown as KeyTimingSummary | null,
      result: row.result as unknown as HeldResultFacts,
    }));
  }

  async decide(
    trx: Transaction<DB>,
    resultId: string,
    decision: ReviewDecision,
    moderatorUid: string,
    at: number,
    reason: string | null,
  ): Promise<void> {
    await trx
      .updateTable('result_reviews')
      .set({ status: decision, decided_by: moderatorUid, decided_at: at, decision_reason: reason })
      .where('result_id', '=', resultId)
      .execute();
  }

  /**
   * An approved result that is still the user's personal best: the best is no longer held, so the trigger on
   * personal_bests puts it on the boards. False when a later result became the best meanwhile.
   */
  async releasePersonalBest(trx: Transaction<DB>, uid: string, resultId: string): Promise<boolean> {
    const updated = await trx
      .updateTable('personal_bests')
      .set({ held_result_id: null })
      .where('uid', '=', uid)
      .where('held_result_id', '=', resultId)
      .executeTakeFirst();
    return updated.numUpdatedRows > 0n;
  }

  async account(uid: string): Promise<BoardAccount | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select([
        'uid',
        'name',
        'banned',
        'lb_opt_out',
        'time_typing',
        'premium_expires_at',
        'inventory_badges',
        'chat_id',
        'chat_avatar',
        'streak_length',
      ])
      .where('uid', '=', uid)
      .executeTakeFirst();
    if (!row) return undefined;
    return {
      uid: row.uid,
      name: row.name,
      banned: row.banned,
      lbOptOut: row.lb_opt_out,
      timeTyping: row.time_typing,
      premiumExpiresAt: row.premium_expires_at,
      badges: row.inventory_badges,
      chatId: row.chat_id,
      chatAvatar: row.chat_avatar,
      streak: row.streak_length,
    };
  }

  /**
   * Account deletion: other users' reviews this moderator decided no longer name them (their own rows cascade). The
   * decision, its time and its notes stay.
   */
  async forgetModerator(uid: string, executor: Executor): Promise<void> {
    await executor
      .updateTable('result_reviews')
      .set({ decided_by: null })
      .where('decided_by', '=', uid)
      .execute();
  }

  /** Account reset: the user's queue entries go with their results and personal bests. */
  async deleteAllOf(uid: string, executor: Executor): Promise<void> {
    await executor.deleteFrom('result_reviews').where('uid', '=', uid).execute();
  }
}
