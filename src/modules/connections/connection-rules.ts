/**
 * The connection state table (spec "Connection status", docs/decisions/0026-connections.md) as pure functions, so
 * every allowed and refused transition is decided in one place and tested table-driven.
 */
export const CONNECTION_STATUSES = ['pending', 'accepted', 'rejected', 'blocked'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** What the receiver may set with PATCH. */
export const RECEIVER_DECISIONS = ['accepted', 'rejected', 'blocked'] as const;
export type ReceiverDecision = (typeof RECEIVER_DECISIONS)[number];

export const CONNECTION_TYPES = ['incoming', 'outgoing'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

export const CONNECTION_MESSAGES = {
  disabled: 'Connections are not available at this time.',
  self: 'You cannot be your own friend, sorry.',
  cap: 'Maximum number of connections reached',
  exists: 'Connection already exists',
  alreadySent: 'Connection request already sent',
  blocked: 'Connection blocked by receiver',
  notFound: 'No permission or connection not found',
} as const;

export type Role = 'initiator' | 'receiver';

export interface PairRecord {
  status: ConnectionStatus;
  initiatorUid: string;
}

export type RequestOutcome =
  | { kind: 'insert' }
  /** A rejected initiator asks again: the pair's record goes back to pending (docs/decisions/0026-connections.md). */
  | { kind: 'renew' }
  | { kind: 'refuse'; message: string };

/** `POST /connections` from `callerUid` when the pair already has `existing` (or nothing). */
export function requestOutcome(existing: PairRecord | undefined, callerUid: string): RequestOutcome {
  if (!existing) return { kind: 'insert' };
  switch (existing.status) {
    case 'pending':
      // Also when the other user asked first: one record per pair, the receiver answers it with PATCH.
      return { kind: 'refuse', message: CONNECTION_MESSAGES.alreadySent };
    case 'accepted':
      return { kind: 'refuse', message: CONNECTION_MESSAGES.exists };
    case 'blocked':
      // Only the receiver can block; the blocker lifts the block by deleting the record.
      return { kind: 'refuse', message: CONNECTION_MESSAGES.blocked };
    case 'rejected':
      // The spec gives only the rejected initiator a way out of `rejected`.
      return existing.initiatorUid === callerUid
        ? { kind: 'renew' }
        : { kind: 'refuse', message: CONNECTION_MESSAGES.exists };
  }
}

export type UpdateOutcome = 'change' | 'unchanged' | 'refuse';

/**
 * `PATCH /connections/{id}`: only the receiver, only from pending. Repeating the decision already taken is a no-op
 * (a retried request must not fail), any other move is refused.
 */
export function updateOutcome(role: Role, current: ConnectionStatus, next: ReceiverDecision): UpdateOutcome {
  if (role !== 'receiver') return 'refuse';
  if (current === 'pending') return 'change';
  return current === next ? 'unchanged' : 'refuse';
}

/**
 * `DELETE /connections/{id}`: pending (cancel or decline) and accepted by either side; blocked only by the receiver,
 * so the blocked user cannot lift the block; rejected by nobody (the table has no such move).
 */
export function mayDelete(role: Role, status: ConnectionStatus): boolean {
  switch (status) {
    case 'pending':
    case 'accepted':
      return true;
    case 'blocked':
      return role === 'receiver';
    case 'rejected':
      return false;
  }
}
