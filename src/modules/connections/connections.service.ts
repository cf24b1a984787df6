import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { Executor } from '../../infra/database/transaction';
import {
  CONNECTION_MESSAGES,
  mayDelete,
  requestOutcome,
  updateOutcome,
  type ConnectionStatus,
  type ConnectionType,
  type ReceiverDecision,
  type Role,
} from './connection-rules';
import { ConnectionsRepository } from './connections.repository';
import type { Connection, OwnConnection } from './connections.types';

function roleOf(uid: string, connection: OwnConnection): Role {
  return connection.initiatorUid === uid ? 'initiator' : 'receiver';
}

/** Friend requests and their answers (spec "Connections"); every move goes through the rules of connection-rules.ts. */
@Injectable()
export class ConnectionsService {
  private readonly logger = new Logger(ConnectionsService.name);

  constructor(
    private readonly repository: ConnectionsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  list(
    uid: string,
    filter: { statuses?: ConnectionStatus[]; types?: ConnectionType[] },
  ): Promise<Connection[]> {
    return this.repository.list(uid, filter);
  }

  /**
   * Uids of the user's accepted connections (without the user). For friends-only leaderboards, which add the caller
   * themselves (docs/decisions/0021-daily-and-weekly-boards.md).
   */
  friendUids(uid: string): Promise<string[]> {
    return this.repository.acceptedPartnerUids(uid);
  }

  async request(uid: string, receiverName: string): Promise<Connection> {
    const receiver = await this.repository.findUserByName(receiverName);
    if (!receiver) throw new AppError(404, MESSAGES.userNotFound);
    if (receiver.uid === uid) throw new AppError(400, CONNECTION_MESSAGES.self);
    const { maxPerUser } = (await this.configuration.get()).connections;
    const now = this.clock.now();

    const connection = await this.repository.transaction(async (trx) => {
      await this.repository.lockRequestsOf(uid, trx);
      if ((await this.repository.countCounted(uid, trx)) >= maxPerUser) {
        throw new AppError(409, CONNECTION_MESSAGES.cap);
      }
      // Two attempts: when the other user's request for the same pair commits between our read and our insert, the
      // insert yields to it and the second pass answers from their record.
      for (let attempt = 0; attempt < 2; attempt++) {
        const existing = await this.repository.findPairForUpdate(uid, receiver.uid, trx);
        const outcome = requestOutcome(existing, uid);
        if (outcome.kind === 'refuse') throw new AppError(409, outcome.message);
        if (outcome.kind === 'renew' && existing) {
          await this.repository.setStatus(uid, existing.id, 'pending', now, trx);
          return this.read(uid, existing.id, trx);
        }
        const id = newId();
        if (await this.repository.insertPending(id, uid, receiver.uid, now, trx)) {
          return this.read(uid, id, trx);
        }
      }
      throw new AppError(409, CONNECTION_MESSAGES.alreadySent);
    });
    this.logger.log({ uid, receiverUid: receiver.uid, connectionId: connection._id }, 'connection requested');
    return connection;
  }

  private async read(uid: string, id: string, trx: Executor): Promise<Connection> {
    const connection = await this.repository.findOne(uid, id, trx);
    if (!connection) throw new Error(`connection ${id} written but not readable in the same transaction`);
    return connection;
  }

  async decide(uid: string, id: string, status: ReceiverDecision): Promise<void> {
    await this.repository.transaction(async (trx) => {
      const connection = await this.repository.findOwnForUpdate(uid, id, trx);
      if (!connection) throw new AppError(404, CONNECTION_MESSAGES.notFound);
      const outcome = updateOutcome(roleOf(uid, connection), connection.status, status);
      if (outcome === 'refuse') throw new AppError(404, CONNECTION_MESSAGES.notFound);
      if (outcome === 'change') await this.repository.setStatus(uid, id, status, this.clock.now(), trx);
    });
    this.logger.log({ uid, connectionId: id, status }, 'connection updated');
  }

  async remove(uid: string, id: string): Promise<void> {
    await this.repository.transaction(async (trx) => {
      const connection = await this.repository.findOwnForUpdate(uid, id, trx);
      if (!connection || !mayDelete(roleOf(uid, connection), connection.status)) {
        throw new AppError(404, CONNECTION_MESSAGES.notFound);
      }
      await this.repository.remove(uid, id, trx);
    });
    this.logger.log({ uid, connectionId: id }, 'connection deleted');
  }
}
