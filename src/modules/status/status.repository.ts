import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, poolOf, type Database } from '../../infra/database/database';

export interface JobRunFacts {
  job: string;
  /** When the job last finished a period (ms), across all replicas. */
  finishedAt: number;
  /** How long that run took, when the job records it (`details.ms`). */
  ms: number | null;
}

export interface PoolFacts {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * The few reads health and metrics make: a round trip, the pool's counters, the last run of each job, the length of
 * the result review queue.
 */
@Injectable()
export class StatusRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async ping(): Promise<void> {
    await sql`SELECT 1`.execute(this.db);
  }

  pool(): PoolFacts | undefined {
    const pool = poolOf(this.db);
    return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
  }

  async lastJobRuns(): Promise<JobRunFacts[]> {
    // DISTINCT ON keeps the latest row per job; a handful of jobs, read once per scrape.
    const rows = await sql<{ job: string; finished_at: number; ms: number | string | null }>`
      SELECT DISTINCT ON (job) job, finished_at, details->'ms' AS ms
      FROM leaderboard_job_runs ORDER BY job, finished_at DESC`.execute(this.db);
    return rows.rows.map((r) => ({
      job: r.job,
      finishedAt: Number(r.finished_at),
      ms: typeof r.ms === 'number' ? r.ms : null,
    }));
  }

  /** Results held for review (a partial index holds exactly those rows). */
  async heldResults(): Promise<number> {
    const { rows } = await sql<{ n: string }>`
      SELECT count(*) AS n FROM result_reviews WHERE status = 'held'`.execute(this.db);
    return Number(rows[0]?.n ?? 0);
  }
}
