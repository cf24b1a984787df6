import { Inject, Injectable } from '@nestjs/common';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../../infra/database/database.types';
import { DATABASE, type Database } from '../../../../infra/database/database';

/** Derived per-user state an import recomputes from the imported rows (never copied from the source). */
@Injectable()
export class DerivedStateRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * `users.last_result_at` (what the submission checks spacing against) from the newest result of each user, where it
   * is behind. Returns the users updated.
   */
  async lastResultTimes(): Promise<number> {
    return this.untimed(async (trx) => {
      const result = await sql`
      UPDATE users u SET last_result_at = r.newest
      FROM (SELECT uid, max(timestamp) AS newest FROM results GROUP BY uid) r
      WHERE u.uid = r.uid AND (u.last_result_at IS NULL OR u.last_result_at < r.newest)`.execute(trx);
      return Number(result.numAffectedRows ?? 0n);
    });
  }

  /** One statement over every result: no request-sized statement timeout (the pool's default). */
  private untimed<T>(work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL statement_timeout = 0`.execute(trx);
      return work(trx);
    });
  }

  /**
   * Daily test activity counted from the results, for users who have results but no activity at all (accounts the
   * original's own activity migration never reached). Returns the users filled.
   */
  async activityFromResults(): Promise<number> {
    return this.untimed(async (trx) => {
      const result = await sql<{ uid: string }>`
      WITH filled AS (
        INSERT INTO test_activity (uid, day, tests)
        SELECT r.uid, (r.timestamp / 86400000)::int, count(*)::int
        FROM results r
        WHERE NOT EXISTS (SELECT 1 FROM test_activity a WHERE a.uid = r.uid)
        GROUP BY r.uid, (r.timestamp / 86400000)::int
        ON CONFLICT DO NOTHING
        RETURNING uid
      )
      SELECT DISTINCT uid FROM filled`.execute(trx);
      return result.rows.length;
    });
  }
}
