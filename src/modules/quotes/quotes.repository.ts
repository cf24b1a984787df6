import { Inject, Injectable } from '@nestjs/common';
import { sql, type Transaction } from 'kysely';
import { advisoryLockKey } from '../../infra/database/advisory-lock';
import { DATABASE, type Database } from '../../infra/database/database';
import type { DB } from '../../infra/database/database.types';
import type { Executor } from '../../infra/database/transaction';

export interface PendingQuote {
  id: string;
  uid: string;
  text: string;
  source: string;
  language: string;
  submittedAt: number;
}

export interface ApprovedQuote {
  language: string;
  text: string;
  source: string;
  submittedBy: string;
  approvedByUid: string;
  approvedBy: string;
}

export type ApproveOutcome =
  | { status: 'approved'; id: number; firstInLanguage: boolean; quote: ApprovedQuote }
  | { status: 'not-found' }
  | { status: 'duplicate' };

async function lock(trx: Transaction<DB>, name: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(${advisoryLockKey(name).toString()}::bigint)`.execute(trx);
}

/** The submission queue (`new_quotes`) and the approved quotes (`quotes`, numbered per language). */
@Injectable()
export class QuotesRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Queues a submission unless the language already has `max` pending ones ('full'). A text already approved or
   * already queued for the language is not stored again ('duplicate'). The per-language lock keeps concurrent
   * submissions from overshooting the cap.
   */
  async enqueue(quote: PendingQuote, max: number): Promise<'queued' | 'full' | 'duplicate'> {
    return this.db.transaction().execute(async (trx) => {
      await lock(trx, `quotes:queue:${quote.language}`);
      const { count } = await trx
        .selectFrom('new_quotes')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('language', '=', quote.language)
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return 'full';
      const approved = await trx
        .selectFrom('quotes')
        .select('id')
        .where('language', '=', quote.language)
        .where(sql<boolean>`md5(text) = md5(${quote.text})`)
        .executeTakeFirst();
      if (approved) return 'duplicate';
      const inserted = await trx
        .insertInto('new_quotes')
        .values({
          id: quote.id,
          uid: quote.uid,
          text: quote.text,
          source: quote.source,
          language: quote.language,
          submitted_at: quote.submittedAt,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return (inserted.numInsertedOrUpdatedRows ?? 0n) === 0n ? 'duplicate' : 'queued';
    });
  }

  /** The oldest pending submissions first. */
  async listPending(limit: number): Promise<PendingQuote[]> {
    const rows = await this.db
      .selectFrom('new_quotes')
      .select(['id', 'uid', 'text', 'source', 'language', 'submitted_at'])
      .orderBy('submitted_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      uid: r.uid,
      text: r.text,
      source: r.source,
      language: r.language,
      submittedAt: r.submitted_at,
    }));
  }

  /**
   * Moves a submission into the approved quotes under the next id of its language, in one transaction. The
   * submission row is locked first, so two moderators approving the same one get one quote and one 'not-found'.
   */
  async approve(
    id: string,
    edit: (pending: PendingQuote) => ApprovedQuote,
    now: number,
  ): Promise<ApproveOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('new_quotes')
        .select(['id', 'uid', 'text', 'source', 'language', 'submitted_at'])
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (!row) return { status: 'not-found' as const };
      const quote = edit({ ...row, submittedAt: row.submitted_at });
      await lock(trx, `quotes:approved:${quote.language}`);
      const existing = await trx
        .selectFrom('quotes')
        .select((eb) => [
          eb.fn.max<number | null>('id').as('maxId'),
          eb.fn
            .countAll<number>()
            .filterWhere(sql<boolean>`md5(text) = md5(${quote.text})`)
            .as('duplicates'),
        ])
        .where('language', '=', quote.language)
        .executeTakeFirstOrThrow();
      if (Number(existing.duplicates) > 0) return { status: 'duplicate' as const };
      const nextId = (existing.maxId ?? 0) + 1;
      await trx
        .insertInto('quotes')
        .values({
          language: quote.language,
          id: nextId,
          text: quote.text,
          source: quote.source,
          length: quote.text.length,
          submitted_by: quote.submittedBy,
          approved_by_uid: quote.approvedByUid,
          approved_by: quote.approvedBy,
          approved_at: now,
        })
        .execute();
      await trx.deleteFrom('new_quotes').where('id', '=', id).execute();
      return { status: 'approved' as const, id: nextId, firstInLanguage: existing.maxId === null, quote };
    });
  }

  /** Returns false when no such submission is pending. */
  async reject(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('new_quotes').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Account deletion: approved quotes stay (public content) but no longer name the account as their submitter or
   * approver (empty values, as for a quote whose people are unknown).
   */
  async unlinkUser(uid: string, trx: Executor): Promise<void> {
    await trx.updateTable('quotes').set({ submitted_by: '' }).where('submitted_by', '=', uid).execute();
    await trx
      .updateTable('quotes')
      .set({ approved_by_uid: '', approved_by: '' })
      .where('approved_by_uid', '=', uid)
      .execute();
  }
}
