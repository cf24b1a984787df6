import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';

export interface NewReleaseJob {
  releaseId: string;
  kind: string;
  tagName: string | null;
  deliveryId: string | null;
}

@Injectable()
export class ReleaseJobsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Enqueues the job unless one exists for the release; returns whether it was created. */
  async enqueueOnce(job: NewReleaseJob, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('release_jobs')
      .values({
        release_id: job.releaseId,
        kind: job.kind,
        tag_name: job.tagName,
        delivery_id: job.deliveryId,
        created_at: now,
      })
      .onConflict((oc) => oc.column('release_id').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  /** The job's status, or null when the release has none. */
  async status(releaseId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('release_jobs')
      .select('status')
      .where('release_id', '=', releaseId)
      .executeTakeFirst();
    return row?.status ?? null;
  }

  async markDone(releaseId: string): Promise<void> {
    await this.db
      .updateTable('release_jobs')
      .set({ status: 'done' })
      .where('release_id', '=', releaseId)
      .execute();
  }
}
