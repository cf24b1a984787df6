import type { ConnectionStatus } from './connection-rules';
import type { Int } from '../../common/int';

/** A connection as the API returns it (contract facts §12.5); names come from `users` at read time. */
export interface Connection {
  _id: string;
  initiatorUid: string;
  initiatorName: string;
  receiverUid: string;
  receiverName: string;
  status: ConnectionStatus;
  lastModified: Int;
}

/** The caller's view of one record, for the transition rules. */
export interface OwnConnection {
  id: string;
  initiatorUid: string;
  receiverUid: string;
  status: ConnectionStatus;
}
