import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { advisoryLockKey } from '../../infra/database/advisory-lock';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import type { ApeKeyHashScheme } from './ape-key-secret';
import type { ApeKeyDetails } from './ape-keys.types';

export interface ApeKeyRow extends ApeKeyDetails {
  id: string;
}

const DETAIL_COLUMNS = ['id', 'name', 'enabled', 'created_on', 'modified_on', 'last_used_on'] as const;

function toRow(row: {
  id: string;
  name: string;
  enabled: boolean;
  created_on: number;
  modified_on: number;
  last_used_on: number;
}): ApeKeyRow {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    createdOn: row.created_on,
    modifiedOn: row.modified_on,
    lastUsedOn: row.last_used_on,
  };
}

@Injectable()
export class ApeKeysRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  transaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /** Serialises one user's key creations until the transaction ends, so the per-user cap cannot be overshot. */
  async lockKeysOf(uid: string, trx: Executor): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(${advisoryLockKey(`ape-keys:${uid}`).toString()}::bigint)`.execute(
      trx,
    );
  }

  async listOf(uid: string): Promise<ApeKeyRow[]> {
    const rows = await this.db
      .selectFrom('ape_keys')
      .select(DETAIL_COLUMNS)
      .where('uid', '=', uid)
      .orderBy('created_on')
      .orderBy('id')
      .execute();
    return rows.map(toRow);
  }

  async countOf(uid: string, trx: Executor): Promise<number> {
    const row = await trx
      .selectFrom('ape_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(
    uid: string,
    key: { id: string; name: string; enabled: boolean; hash: string },
    now: number,
    trx: Executor,
  ): Promise<void> {
    await trx
      .insertInto('ape_keys')
      .values({ uid, ...key, created_on: now, modified_on: now, last_used_on: -1 })
      .execute();
  }

  async exists(uid: string, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('ape_keys')
      .select('id')
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** False when the user has no such key. */
  async update(
    uid: string,
    id: string,
    changes: { name?: string; enabled?: boolean },
    now: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('ape_keys')
      .set({ ...changes, modified_on: now })
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** False when the user has no such key. */
  async remove(uid: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('ape_keys')
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteAllOf(uid: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('ape_keys').where('uid', '=', uid).execute();
  }

  /**
   * The authentication lookup. Not owner-scoped on purpose: the presented key names its id, and its secret is then
   * checked against the stored hash.
   */
  async findForVerification(
    id: string,
  ): Promise<{ uid: string; enabled: boolean; hash: string; scheme: ApeKeyHashScheme } | undefined> {
    return this.db
      .selectFrom('ape_keys')
      .select(['uid', 'enabled', 'hash', 'hash_scheme as scheme'])
      .where('id', '=', id)
      .executeTakeFirst() as Promise<
      { uid: string; enabled: boolean; hash: string; scheme: ApeKeyHashScheme } | undefined
    >;
  }

  /** Moves `last_used_on` forward only (replicas may write out of order). */
  async touchLastUsed(id: string, now: number): Promise<void> {
    await this.db
      .updateTable('ape_keys')
      .set({ last_used_on: now })
      .where('id', '=', id)
      .where('last_used_on', '<', now)
      .execute();
  }
}
