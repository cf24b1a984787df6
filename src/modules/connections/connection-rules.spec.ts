import {
  CONNECTION_MESSAGES as M,
  mayDelete,
  requestOutcome,
  updateOutcome,
  type ConnectionStatus,
  type ReceiverDecision,
  type Role,
} from './connection-rules';

describe('requestOutcome', () => {
  const A = 'uidA';
  const B = 'uidB';

  it('inserts when the pair has no record', () => {
    expect(requestOutcome(undefined, A)).toEqual({ kind: 'insert' });
  });

  it.each<[ConnectionStatus, string, ReturnType<typeof requestOutcome>]>([
    ['pending', A, { kind: 'refuse', message: M.alreadySent }],
    ['pending', B, { kind: 'refuse', message: M.alreadySent }],
    ['accepted', A, { kind: 'refuse', message: M.exists }],
    ['accepted', B, { kind: 'refuse', message: M.exists }],
    ['blocked', A, { kind: 'refuse', message: M.blocked }],
    ['blocked', B, { kind: 'refuse', message: M.blocked }],
    ['rejected', A, { kind: 'renew' }],
    ['rejected', B, { kind: 'refuse', message: M.exists }],
  ])('record %s initiated by A, request by %s → %j', (status, caller, expected) => {
    expect(requestOutcome({ status, initiatorUid: A }, caller)).toEqual(expected);
  });
});

describe('updateOutcome', () => {
  it.each<[Role, ConnectionStatus, ReceiverDecision, ReturnType<typeof updateOutcome>]>([
    ['receiver', 'pending', 'accepted', 'change'],
    ['receiver', 'pending', 'rejected', 'change'],
    ['receiver', 'pending', 'blocked', 'change'],
    ['initiator', 'pending', 'accepted', 'refuse'],
    ['initiator', 'pending', 'rejected', 'refuse'],
    ['initiator', 'pending', 'blocked', 'refuse'],
    ['receiver', 'accepted', 'accepted', 'unchanged'],
    ['receiver', 'accepted', 'blocked', 'refuse'],
    ['receiver', 'accepted', 'rejected', 'refuse'],
    ['receiver', 'rejected', 'rejected', 'unchanged'],
    ['receiver', 'rejected', 'accepted', 'refuse'],
    ['receiver', 'blocked', 'blocked', 'unchanged'],
    ['receiver', 'blocked', 'accepted', 'refuse'],
    ['initiator', 'accepted', 'accepted', 'refuse'],
    ['initiator', 'blocked', 'accepted', 'refuse'],
  ])('%s on %s → %s gives %s', (role, current, next, expected) => {
    expect(updateOutcome(role, current, next)).toBe(expected);
  });
});

describe('mayDelete', () => {
  it.each<[Role, ConnectionStatus, boolean]>([
    ['initiator', 'pending', true],
    ['receiver', 'pending', true],
    ['initiator', 'accepted', true],
    ['receiver', 'accepted', true],
    ['initiator', 'blocked', false],
    ['receiver', 'blocked', true],
    ['initiator', 'rejected', false],
    ['receiver', 'rejected', false],
  ])('%s on %s → %s', (role, status, expected) => {
    expect(mayDelete(role, status)).toBe(expected);
  });
});
