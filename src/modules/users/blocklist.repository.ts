import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import { blocklistEntries, type BlocklistEntry, type BlocklistSubject } from './blocklist';

/** The blocklist table (hashes only; see the migration). */
@Injectable()
export class BlocklistRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Whether any of the subject's values is blocked. */
  async contains(subject: BlocklistSubject, executor: Executor = this.db): Promise<boolean> {
    const entries = blocklistEntries(subject);
    if (entries.length === 0) return false;
    const row = await executor
      .selectFrom('blocklist')
      .select('kind')
      .where((eb) => eb.or(entries.map((e) => eb.and([eb('kind', '=', e.kind), eb('hash', '=', e.hash)]))))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Adds entries; ones already there stay as they were. Returns how many were new. */
  async add(entries: BlocklistEntry[], now: number, executor: Executor = this.db): Promise<number> {
    if (entries.length === 0) return 0;
    const result = await executor
      .insertInto('blocklist')
      .values(entries.map((e) => ({ kind: e.kind, hash: e.hash, created_at: now })))
      .onConflict((oc) => oc.columns(['kind', 'hash']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
}
