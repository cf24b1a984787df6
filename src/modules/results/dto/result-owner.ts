import { ValidationFailed, MESSAGES } from '../../../common/app-error';

/**
 * The submitted result's `uid`, when the client sends one, must be the caller's. It is compared with the uid from
 * the token as is — uids are whatever the identity provider issues (`auth0|…`, UUIDs), never an entity id — and a
 * mismatch is a body validation failure rather than a silent rewrite, so a client hashing with a stale account's
 * uid learns why.
 */
export function assertOwnResult(result: { uid?: string }, callerUid: string): void {
  if (result.uid !== undefined && result.uid !== callerUid) {
    throw new ValidationFailed(422, MESSAGES.invalidBody, ['"result.uid" must be the uid of the caller']);
  }
}
