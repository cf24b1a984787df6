import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { advisoryLockKey } from '../../infra/database/advisory-lock';
import { DATABASE, type Database } from '../../infra/database/database';

export interface NewUserReport {
  /** The reporter. */
  uid: string;
  reportedUid: string;
  reason: string;
  comment: string;
}

export type UserReportOutcome = 'reported' | 'backlog-full' | 'content-limit' | 'already-reported';

/**
 * User reports live in `quote_reports` with `type = 'user'` and the reported uid as `content_id`: the original keeps
 * every report in one collection, and the admin accept/reject routes then handle both kinds by report id. The
 * backlog limit counts reports of both kinds, as on the original.
 */
@Injectable()
export class UserReportsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Limits checked in the original's order (backlog, this user, this reporter) under a per-content lock. */
  async insertWithinLimits(
    report: NewUserReport,
    limits: { maxReports: number; contentReportLimit: number },
    now: number,
  ): Promise<UserReportOutcome> {
    return this.db.transaction().execute(async (trx) => {
      const key = advisoryLockKey(`quote-report:${report.reportedUid}`).toString();
      await sql`SELECT pg_advisory_xact_lock(${key}::bigint)`.execute(trx);
      const counts = await trx
        .selectFrom('quote_reports')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.countAll<number>().filterWhere('content_id', '=', report.reportedUid).as('forContent'),
          eb.fn
            .countAll<number>()
            .filterWhere((w) => w.and([w('content_id', '=', report.reportedUid), w('uid', '=', report.uid)]))
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
          type: 'user',
          uid: report.uid,
          content_id: report.reportedUid,
          reason: report.reason,
          comment: report.comment,
          created_at: now,
        })
        .onConflict((oc) => oc.columns(['content_id', 'uid']).doNothing())
        .executeTakeFirst();
      return (inserted.numInsertedOrUpdatedRows ?? 0n) === 0n ? 'already-reported' : 'reported';
    });
  }
}
