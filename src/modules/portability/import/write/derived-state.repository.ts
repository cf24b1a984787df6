import { Inject, Injectable } from '@nestjs/common';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../../../../infra/database/database.types';
import { DATABASE, type Database } from '../../../../infra/database/database';
import { FUNBOXES } from '../../../results/domain/funboxes';

/** Funboxes a personal best (and so a board entry) may be set with. */
const PB_FUNBOXES = Object.entries(FUNBOXES)
  .filter(([, funbox]) => funbox.canGetPb)
  .map(([name]) => name);

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

  /**
   * The boards' entry under a personal best held for review (or rejected): the user's best result that may be on
   * the boards, as the submissions left it where the account came from (a held best leaves the board entry to the
   * results that are not held; `leaderboard_offer_best`, migration 20261126100000). The trigger on personal_bests
   * writes no entry for a held best, so without this an imported account with one would be off that board. Only
   * raises an entry; safe to run again. Returns the bests offered.
   */
  async boardBestsUnderHeldBests(): Promise<number> {
    return this.untimed(async (trx) => {
      const result = await sql`
      SELECT leaderboard_offer_best(p.uid, p.language, p.mode, p.mode2, p.difficulty, p.punctuation, p.numbers,
        p.lazy_mode, b.wpm, b.acc, b.raw_wpm, b.consistency, b.timestamp)
      FROM personal_bests p
      CROSS JOIN LATERAL (
        SELECT r.wpm, r.acc, r.raw_wpm, r.consistency, r.timestamp FROM results r
        WHERE r.uid = p.uid AND r.mode = p.mode AND r.mode2 = p.mode2 AND r.language = p.language
          AND r.difficulty = p.difficulty AND r.punctuation = p.punctuation AND r.numbers = p.numbers
          AND r.lazy_mode = p.lazy_mode
          AND NOT r.bailed_out AND (NOT r.stop_on_letter OR r.acc >= 100) AND r.funbox <@ ${PB_FUNBOXES}::text[]
          AND NOT EXISTS (SELECT 1 FROM result_reviews rv WHERE rv.result_id = r.id AND rv.status <> 'approved')
        ORDER BY r.wpm DESC, r.timestamp ASC
        LIMIT 1
      ) b
      WHERE p.held_result_id IS NOT NULL AND p.difficulty = 'normal' AND NOT p.punctuation AND NOT p.numbers
        AND NOT p.lazy_mode`.execute(trx);
      return result.rows.length;
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
