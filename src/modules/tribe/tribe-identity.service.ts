import { Injectable, Logger } from '@nestjs/common';
import { AccountRepository } from '../../common/auth/account.repository';
import { TokenError } from '../../common/auth/identity-provider';
import { TokenVerifierService } from '../../common/auth/token-verifier.service';
import { userNameProblem } from '../users/user-name';
import { addressKey } from './domain/ids';
import type { Identity } from './domain/room';

/** A connection refused: its message is what the client shows (`connect_error`). */
export class TribeRefusal extends Error {}

export const GUEST = 'Guest';
const MAX_TOKEN_LENGTH = 8192;

export interface Handshake {
  query: Record<string, unknown>;
  auth: Record<string, unknown>;
}

/** The name a client asked for, if it passes the account-name rules; a guest otherwise. */
export function requestedName(query: Record<string, unknown>): string {
  const raw = query.name;
  const name = Array.isArray(raw) ? raw[0] : raw;
  return typeof name === 'string' && userNameProblem(name) === null ? name : GUEST;
}

/**
 * Who a connection is. The original client's handshake carries only a name (`query.name`), so a player is unverified
 * by default: the name must pass the account-name rules, and nothing persistent or privileged depends on it. A
 * client that also sends its ID token (`auth.token`) is verified through the identity provider and races under its
 * account's name; a banned account is refused.
 */
@Injectable()
export class TribeIdentityService {
  private readonly logger = new Logger(TribeIdentityService.name);

  constructor(
    private readonly tokens: TokenVerifierService,
    private readonly accounts: AccountRepository,
  ) {}

  async identify(
    handshake: Handshake,
    ids: { id: string; replica: string; address: string },
  ): Promise<Identity> {
    const base = { id: ids.id, replica: ids.replica, addressKey: addressKey(ids.address) };
    const token = handshake.auth.token;
    if (token === undefined || token === null || token === '')
      return { ...base, name: requestedName(handshake.query), uid: null };
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) throw new TribeRefusal('Invalid token');
    let uid: string;
    try {
      uid = (await this.tokens.verify(token, { useCache: true })).uid;
    } catch (e) {
      if (!(e instanceof TokenError)) throw e;
      if (e.reason === 'provider-unavailable')
        throw new TribeRefusal('Could not verify your sign-in, try again');
      if (e.reason === 'expired') throw new TribeRefusal('Your sign-in expired, sign in again');
      throw new TribeRefusal('Invalid token');
    }
    const account = await this.accounts.findCaller(uid);
    if (!account) throw new TribeRefusal('Account not found');
    if (account.banned) {
      this.logger.log({ uid }, 'banned account refused');
      throw new TribeRefusal('Your account is banned');
    }
    return { ...base, name: account.name, uid };
  }

  /** The unverified player's new name, or why not. */
  static renameProblem(identity: Identity, name: string): string | null {
    if (identity.uid !== null) return 'Signed-in players race under their account name';
    const problem = userNameProblem(name);
    return problem === null ? null : `Name ${problem}`;
  }
}
