import { Inject, Injectable } from '@nestjs/common';
import { sql, type Transaction } from 'kysely';
import { withAdvisoryLock } from '../../infra/database/advisory-lock';
import { DATABASE, type Database } from '../../infra/database/database';
import type { DB } from '../../infra/database/database.types';
import type { Executor } from '../../infra/database/transaction';
import { withoutUser } from './job-run-details';

/**
 * Which period each scheduled job finished (`leaderboard_job_runs`), and the lock that lets one replica at a time
 * run a job body. Together they make every job run once per period, whatever the number of replicas or retries.
 */
@Injectable()
export class JobRunsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Runs `fn` only if no other session holds the job's lock; `{ ran: false }` at once otherwise, or after waiting up
   * to `waitMs` for it.
   */
  exclusively<T>(job: string, fn: () => Promise<T>, waitMs = 0) {
    return withAdvisoryLock(this.db, `leaderboards:${job}`, fn, { waitMs });
  }

  transaction<T>(fn: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  async isDone(job: string, period: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('leaderboard_job_runs')
      .select('job')
      .where('job', '=', job)
      .where('period', '=', period)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Records the period as finished; false when it already was (another replica got there first). */
  async record(
    job: string,
    period: string,
    finishedAt: number,
    details: object,
    executor: Executor = this.db,
  ): Promise<boolean> {
    const inserted = await executor
      .insertInto('leaderboard_job_runs')
      .values({ job, period, finished_at: finishedAt, details: JSON.stringify(details) })
      .onConflict((oc) => oc.columns(['job', 'period']).doNothing())
      .returning('job')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** The given users that still have an account (a reward mail needs its recipient). */
  async existingUids(uids: string[], executor: Executor = this.db): Promise<Set<string>> {
    if (uids.length === 0) return new Set();
    const rows = await executor.selectFrom('users').select('uid').where('uid', 'in', uids).execute();
    return new Set(rows.map((r) => r.uid));
  }

  /** Account deletion: the periods whose announced standings list the user keep them without the user. */
  async forgetUser(uid: string, trx: Executor): Promise<void> {
    const rows = await trx
      .selectFrom('leaderboard_job_runs')
      .select(['job', 'period', 'details'])
      .where(
        sql<boolean>`jsonb_path_exists(details, '$.** ? (@.uid == $uid)', jsonb_build_object('uid', ${uid}::text))`,
      )
      .execute();
    for (const row of rows) {
      await trx
        .updateTable('leaderboard_job_runs')
        .set({ details: JSON.stringify(withoutUser(row.details, uid)) })
        .where('job', '=', row.job)
        .where('period', '=', row.period)
        .execute();
    }
  }
}
