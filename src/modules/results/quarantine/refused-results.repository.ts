import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../../infra/database/database';
import type { Executor } from '../../../infra/database/transaction';
import type { Figures } from '../domain/anti-cheat/checked-result';

/** A result the anti-cheat refused, as kept in the quarantine. */
export interface RefusedResult {
  id: string;
  uid: string;
  refusedAt: number;
  status: 463 | 464 | 465;
  check: string;
  figures: Figures;
  /** The `result` object exactly as received (its hash included). */
  body: Record<string, unknown>;
  clientVersion: string | null;
}

export interface RefusedFilter {
  check?: string;
  since?: number;
  uid?: string;
}

export interface QuarantineBounds {
  maxPerUser: number;
  maxTotal: number;
  /** Rows refused before this time are gone. */
  expiresBefore: number;
}

const COLUMNS = [
  'id',
  'uid',
  'refused_at',
  'status',
  'check_name',
  'figures',
  'body',
  'client_version',
] as const;

type Row = {
  id: string;
  uid: string;
  refused_at: string | number;
  status: number;
  check_name: string;
  figures: unknown;
  body: unknown;
  client_version: string | null;
};

function toRefused(row: Row): RefusedResult {
  return {
    id: row.id,
    uid: row.uid,
    refusedAt: Number(row.refused_at),
    status: row.status as RefusedResult['status'],
    check: row.check_name,
    figures: row.figures as Figures,
    body: row.body as Record<string, unknown>,
    clientVersion: row.client_version,
  };
}

/** The quarantine table (`refused_results`). */
@Injectable()
export class RefusedResultsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Keeps a refused result, then applies the bounds in the same transaction: expired rows, the account's oldest past
   * its share, everyone's oldest past the total (both by index, so a flood of refusals stays cheap and bounded).
   */
  async add(refused: RefusedResult, bounds: QuarantineBounds): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('refused_results')
        .values({
          id: refused.id,
          uid: refused.uid,
          refused_at: refused.refusedAt,
          status: refused.status,
          check_name: refused.check,
          figures: JSON.stringify(refused.figures),
          body: JSON.stringify(refused.body),
          client_version: refused.clientVersion,
        })
        .execute();
      await trx.deleteFrom('refused_results').where('refused_at', '<', bounds.expiresBefore).execute();
      await sql`
        DELETE FROM refused_results WHERE uid = ${refused.uid} AND id NOT IN (
          SELECT id FROM refused_results WHERE uid = ${refused.uid}
          ORDER BY refused_at DESC, id DESC LIMIT ${bounds.maxPerUser})`.execute(trx);
      await sql`
        DELETE FROM refused_results WHERE refused_at < (
          SELECT refused_at FROM refused_results ORDER BY refused_at DESC OFFSET ${bounds.maxTotal - 1} LIMIT 1)`.execute(
        trx,
      );
    });
  }

  /** Refused results matching the filter, oldest first, from `afterId` on (keyset paging for long lists). */
  async list(
    filter: RefusedFilter,
    limit: number,
    after?: { refusedAt: number; id: string },
  ): Promise<RefusedResult[]> {
    let query = this.db.selectFrom('refused_results').select(COLUMNS);
    if (filter.check !== undefined) query = query.where('check_name', '=', filter.check);
    if (filter.since !== undefined) query = query.where('refused_at', '>=', filter.since);
    if (filter.uid !== undefined) query = query.where('uid', '=', filter.uid);
    if (after) {
      query = query.where((eb) =>
        eb.or([
          eb('refused_at', '>', after.refusedAt),
          eb.and([eb('refused_at', '=', after.refusedAt), eb('id', '>', after.id)]),
        ]),
      );
    }
    const rows = await query.orderBy('refused_at').orderBy('id').limit(limit).execute();
    return rows.map((row) => toRefused(row as Row));
  }

  /** Every refused result of one account, oldest first (the account's export). */
  async forAccount(uid: string): Promise<RefusedResult[]> {
    const rows = await this.db
      .selectFrom('refused_results')
      .select(COLUMNS)
      .where('uid', '=', uid)
      .orderBy('refused_at')
      .orderBy('id')
      .execute();
    return rows.map((row) => toRefused(row as Row));
  }

  async remove(ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db.deleteFrom('refused_results').where('id', 'in', ids).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** What the judge needs to know of the accounts (opted out of the boards), for those that still exist. */
  async accountFacts(uids: string[]): Promise<Map<string, { lbOptOut: boolean }>> {
    if (uids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['uid', 'lb_opt_out'])
      .where('uid', 'in', [...new Set(uids)])
      .execute();
    return new Map(rows.map((row) => [row.uid, { lbOptOut: row.lb_opt_out }]));
  }

  /** Every refused result of one account (an account reset clears them with its results). */
  async removeForAccount(uid: string, executor: Executor): Promise<void> {
    await executor.deleteFrom('refused_results').where('uid', '=', uid).execute();
  }

  async purgeExpired(expiresBefore: number): Promise<number> {
    const result = await this.db
      .deleteFrom('refused_results')
      .where('refused_at', '<', expiresBefore)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
