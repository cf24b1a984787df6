import { Inject, Injectable } from '@nestjs/common';
import { sql, type RawBuilder } from 'kysely';
import { advisoryLockKey } from '../../infra/database/advisory-lock';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import type { ConnectionStatus, ConnectionType } from './connection-rules';
import type { Connection, OwnConnection } from './connections.types';

/** Owner scope: the user is one side of the connection. */
function involving(uid: string): RawBuilder<boolean> {
  return sql<boolean>`(connections.initiator_uid = ${uid} OR connections.receiver_uid = ${uid})`;
}

@Injectable()
export class ConnectionsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Runs `fn` in one transaction. */
  transaction<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(fn);
  }

  /** Serialises one user's connection requests until the transaction ends, so the cap cannot be overshot. */
  async lockRequestsOf(uid: string, trx: Executor): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(${advisoryLockKey(`connections:${uid}`).toString()}::bigint)`.execute(
      trx,
    );
  }

  async findUserByName(name: string): Promise<{ uid: string } | undefined> {
    return this.db
      .selectFrom('users')
      .select('uid')
      .where(sql<string>`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst();
  }

  /** Connections the user takes part in, on either side, that count towards the cap (all but rejected ones). */
  async countCounted(uid: string, trx: Executor): Promise<number> {
    const row = await trx
      .selectFrom('connections')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(involving(uid))
      .where('status', '<>', 'rejected')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The record of the pair, whoever initiated it, locked until the transaction ends. */
  async findPairForUpdate(uid: string, otherUid: string, trx: Executor): Promise<OwnConnection | undefined> {
    const row = await trx
      .selectFrom('connections')
      .select(['id', 'initiator_uid', 'receiver_uid', 'status'])
      .where((eb) =>
        eb.or([
          eb.and([eb('initiator_uid', '=', uid), eb('receiver_uid', '=', otherUid)]),
          eb.and([eb('initiator_uid', '=', otherUid), eb('receiver_uid', '=', uid)]),
        ]),
      )
      .forUpdate()
      .executeTakeFirst();
    return row && toOwn(row);
  }

  /** Inserts a pending request; false when the pair got a record meanwhile (the unique pair index decides). */
  async insertPending(
    id: string,
    initiatorUid: string,
    receiverUid: string,
    now: number,
    trx: Executor,
  ): Promise<boolean> {
    const inserted = await trx
      .insertInto('connections')
      .values({
        id,
        initiator_uid: initiatorUid,
        receiver_uid: receiverUid,
        status: 'pending',
        created_at: now,
        last_modified: now,
      })
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /** A record of the user (either side) by id, locked until the transaction ends. */
  async findOwnForUpdate(uid: string, id: string, trx: Executor): Promise<OwnConnection | undefined> {
    const row = await trx
      .selectFrom('connections')
      .select(['id', 'initiator_uid', 'receiver_uid', 'status'])
      .where(involving(uid))
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    return row && toOwn(row);
  }

  async setStatus(
    uid: string,
    id: string,
    status: ConnectionStatus,
    now: number,
    trx: Executor,
  ): Promise<void> {
    await trx
      .updateTable('connections')
      .set({ status, last_modified: now })
      .where(involving(uid))
      .where('id', '=', id)
      .execute();
  }

  async remove(uid: string, id: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('connections').where(involving(uid)).where('id', '=', id).execute();
  }

  async findOne(uid: string, id: string, executor: Executor = this.db): Promise<Connection | undefined> {
    const row = await withNames(executor)
      .where(involving(uid))
      .where('connections.id', '=', id)
      .executeTakeFirst();
    return row && toConnection(row);
  }

  async list(
    uid: string,
    filter: { statuses?: ConnectionStatus[]; types?: ConnectionType[] },
  ): Promise<Connection[]> {
    const types = filter.types ?? [];
    const incoming = types.length === 0 || types.includes('incoming');
    const outgoing = types.length === 0 || types.includes('outgoing');
    let query = withNames(this.db).where((eb) =>
      eb.or([
        ...(outgoing ? [eb('connections.initiator_uid', '=', uid)] : []),
        ...(incoming ? [eb('connections.receiver_uid', '=', uid)] : []),
      ]),
    );
    if (filter.statuses && filter.statuses.length > 0) {
      query = query.where('connections.status', 'in', filter.statuses);
    }
    const rows = await query
      .orderBy('connections.last_modified', 'desc')
      .orderBy('connections.id', 'asc')
      .execute();
    return rows.map(toConnection);
  }

  /** Uids of the other side of every accepted connection of the user. */
  async acceptedPartnerUids(uid: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('connections')
      .select(
        sql<string>`CASE WHEN initiator_uid = ${uid} THEN receiver_uid ELSE initiator_uid END`.as('partner'),
      )
      .where(involving(uid))
      .where('status', '=', 'accepted')
      .execute();
    return rows.map((r) => r.partner);
  }
}

function withNames(executor: Executor) {
  return executor
    .selectFrom('connections')
    .innerJoin('users as i', 'i.uid', 'connections.initiator_uid')
    .innerJoin('users as r', 'r.uid', 'connections.receiver_uid')
    .select([
      'connections.id',
      'connections.initiator_uid',
      'i.name as initiator_name',
      'connections.receiver_uid',
      'r.name as receiver_name',
      'connections.status',
      'connections.last_modified',
    ]);
}

function toOwn(row: {
  id: string;
  initiator_uid: string;
  receiver_uid: string;
  status: string;
}): OwnConnection {
  return {
    id: row.id,
    initiatorUid: row.initiator_uid,
    receiverUid: row.receiver_uid,
    status: row.status as ConnectionStatus,
  };
}

function toConnection(row: {
  id: string;
  initiator_uid: string;
  initiator_name: string;
  receiver_uid: string;
  receiver_name: string;
  status: string;
  last_modified: number;
}): Connection {
  return {
    _id: row.id,
    initiatorUid: row.initiator_uid,
    initiatorName: row.initiator_name,
    receiverUid: row.receiver_uid,
    receiverName: row.receiver_name,
    status: row.status as ConnectionStatus,
    lastModified: row.last_modified,
  };
}
