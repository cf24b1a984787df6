import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { advisoryLockKey } from '../../infra/database/advisory-lock';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';

/**
 * A report of a quote (`contentId` `<language>-<id>`) or of a user (`contentId` their uid, no quote columns). Both
 * kinds live in `quote_reports`, as on the original (one collection), so the admin routes handle either by id and the
 * backlog limit counts both.
 */
export interface NewReport {
  type: 'quote' | 'user';
  /** The reporter. */
  uid: string;
  contentId: string;
  quoteId: number | null;
  quoteLanguage: string | null;
  reason: string;
  comment: string;
}

export interface ReportLimits {
  /** Reports waiting in total (the moderation backlog). */
  maxReports: number;
  /** Reports of one quote. */
  contentReportLimit: number;
}

/** A stored report as moderators handle it. */
export interface StoredReport {
  id: string;
  uid: string;
  contentId: string;
  /** What was reported: a quote (`contentId` is `<language>-<quote id>`) or a user (`contentId` is their uid). */
  type: 'quote' | 'user';
  reason: string;
}

/** Report ids are UUIDs; anything else cannot name a stored report. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ReportOutcome = 'reported' | 'backlog-full' | 'content-limit' | 'already-reported';

@Injectable()
export class QuoteReportsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Stores a report unless a limit says no, checked in the original's order: backlog, reports of this content, this
   * reporter already. The per-content lock keeps concurrent reports of one content from overshooting its limit; the
   * unique (content, reporter) key settles a reporter racing with themself.
   */
  async insertWithinLimits(report: NewReport, limits: ReportLimits, now: number): Promise<ReportOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const key = advisoryLockKey(`quote-report:${report.contentId}`).toString();
      await sql`SELECT pg_advisory_xact_lock(${key}::bigint)`.execute(trx);
      const counts = await trx
        .selectFrom('quote_reports')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.countAll<number>().filterWhere('content_id', '=', report.contentId).as('forContent'),
          eb.fn
            .countAll<number>()
            .filterWhere((w) => w.and([w('content_id', '=', report.contentId), w('uid', '=', report.uid)]))
            .as('byReporter'),
        ])
        .executeTakeFirstOrThrow();
      if (Number(counts.total) >= limits.maxReports) return 'backlog-full';
      if (Number(counts.forContent) >= limits.contentReportLimit) return 'content-limit';
      if (Number(counts.byReporter) > 0) return 'already-reported';
      const inserted = await trx
        .insertInto('quote_reports')
        .values({
          id: randomUUID(),
          type: report.type,
          uid: report.uid,
          content_id: report.contentId,
          quote_id: report.quoteId,
          quote_language: report.quoteLanguage,
          reason: report.reason,
          comment: report.comment,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['content_id', 'uid']).doNothing())
        .executeTakeFirst();
      return (inserted.numInsertedOrUpdatedRows ?? 0n) === 0n ? 'already-reported' : 'reported';
    });
  }

  /**
   * Removes the given reports and runs `notify` for them in the same transaction (the reporters' mail), unless some
   * id names no stored report: then nothing changes and the missing ids are returned. The rows are locked, so two
   * moderators handling the same report do not both mail its reporter.
   */
  async resolve(
    ids: string[],
    notify: (reports: StoredReport[], trx: Executor) => Promise<void>,
  ): Promise<{ missing: string[] }> {
    return this.db.transaction().execute(async (trx) => {
      const wellFormed = ids.filter((id) => UUID.test(id));
      const rows =
        wellFormed.length === 0
          ? []
          : await trx
              .selectFrom('quote_reports')
              .select(['id', 'uid', 'type', 'content_id', 'reason'])
              .where('id', 'in', wellFormed)
              .forUpdate()
              .execute();
      const found = new Set(rows.map((r) => r.id.toLowerCase()));
      const missing = ids.filter((id) => !found.has(id.toLowerCase()));
      if (missing.length > 0) return { missing };
      await trx.deleteFrom('quote_reports').where('id', 'in', wellFormed).execute();
      await notify(
        rows.map((r) => ({
          id: r.id,
          uid: r.uid,
          type: r.type === 'user' ? 'user' : 'quote',
          contentId: r.content_id,
          reason: r.reason,
        })),
        trx,
      );
      return { missing: [] };
    });
  }

  /** Account deletion: reports of the account by others have no subject left (its own reports cascade). */
  async deleteReportsAbout(uid: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('quote_reports').where('type', '=', 'user').where('content_id', '=', uid).execute();
  }
}
