import { Injectable } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import type { AuthContext } from '../../common/http/request-context';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { ConnectionsService } from '../connections/connections.service';

export const FRIENDS_UNAVAILABLE = 'This feature is currently unavailable.';

/**
 * Who a `friendsOnly` board shows: the caller and their accepted connections
 * (docs/decisions/0021-daily-and-weekly-boards.md).
 */
@Injectable()
export class FriendsScope {
  constructor(private readonly connections: ConnectionsService) {}

  /** Null when the board is not limited to friends. */
  async uids(auth: AuthContext, friendsOnly: boolean, config: ServerConfiguration): Promise<string[] | null> {
    if (!friendsOnly) return null;
    if (auth.type === 'None') throw new AppError(401, MESSAGES.unauthorized);
    if (!config.connections.enabled) throw new AppError(503, FRIENDS_UNAVAILABLE);
    return [auth.uid, ...(await this.connections.friendUids(auth.uid))];
  }
}
