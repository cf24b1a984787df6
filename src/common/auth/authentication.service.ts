import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { APP_ENV, type AppEnv } from '../../config/env';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { AppError, MESSAGES } from '../app-error';
import { Clock } from '../clock';
import { ANONYMOUS, type AuthContext } from '../http/request-context';
import { ApeKeyAuthenticator, parseApeKey } from './ape-key-authenticator';
import { TokenError } from './identity-provider';
import type { RoutePolicy } from './policy';
import { TokenVerifierService } from './token-verifier.service';
import { isValidUid } from './uid';

export const FRESH_TOKEN_MS = 60_000;

function tokenErrorToAppError(e: TokenError): AppError {
  switch (e.reason) {
    case 'expired':
      return new AppError(401, MESSAGES.tokenExpired);
    case 'revoked':
      return new AppError(401, MESSAGES.tokenRevoked);
    case 'user-not-found':
      return new AppError(404, MESSAGES.userNotFound);
    case 'provider-unavailable':
      return new AppError(503, 'The identity provider could not verify the token, please try again later.', {
        reason: e.message,
      });
    default:
      return new AppError(401, MESSAGES.unauthorized, { reason: e.message });
  }
}

/**
 * Reads the Authorization header per spec "Authentication": Bearer (identity provider), ApeKey, Uid (dev only), or
 * none on public routes. Throws the spec's status and message for every failure.
 */
@Injectable()
export class AuthenticationService {
  constructor(
    private readonly tokens: TokenVerifierService,
    private readonly apeKeys: ApeKeyAuthenticator,
    private readonly clock: Clock,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async authenticate(
    request: FastifyRequest,
    policy: RoutePolicy,
    configuration: ServerConfiguration,
  ): Promise<AuthContext> {
    if (policy.rawAuth) return ANONYMOUS;
    const isPublic = policy.public || (policy.devPublic && this.env.mode === 'dev');
    const header = request.headers.authorization?.trim() ?? '';
    if (header === '') {
      if (isPublic) return ANONYMOUS;
      throw new AppError(401, MESSAGES.unauthorized);
    }
    const space = header.indexOf(' ');
    const scheme = space === -1 ? header : header.slice(0, space);
    const credential = space === -1 ? '' : header.slice(space + 1).trim();
    if (credential === '') throw new AppError(401, MESSAGES.unauthorized);

    switch (scheme) {
      case 'Bearer':
        return this.bearer(credential, policy);
      case 'ApeKey':
        return this.apeKey(credential, policy, isPublic, configuration);
      case 'Uid':
        return this.uid(credential);
      default:
        throw new AppError(401, MESSAGES.unauthorized);
    }
  }

  private async bearer(token: string, policy: RoutePolicy): Promise<AuthContext> {
    let verified;
    try {
      verified = await this.tokens.verify(token, { useCache: !(policy.freshToken || policy.noTokenCache) });
    } catch (e) {
      if (e instanceof TokenError) throw tokenErrorToAppError(e);
      throw e;
    }
    if (policy.freshToken && this.clock.now() - verified.authTime > FRESH_TOKEN_MS) {
      throw new AppError(401, MESSAGES.freshTokenRequired);
    }
    return { type: 'Bearer', uid: verified.uid, email: verified.email };
  }

  private async apeKey(
    credential: string,
    policy: RoutePolicy,
    isPublic: boolean,
    configuration: ServerConfiguration,
  ): Promise<AuthContext> {
    if (!configuration.apeKeys.acceptKeys) throw new AppError(503, MESSAGES.apeKeysOff);
    if (!isPublic && !policy.acceptsApeKey) throw new AppError(401, MESSAGES.apeKeyNotAccepted);
    const key = parseApeKey(credential);
    if (!key) throw new AppError(471, MESSAGES.apeKeyMalformed);
    const check = await this.apeKeys.verify(key);
    if (check.status === 'not-found') throw new AppError(404, MESSAGES.apeKeyNotFound);
    if (check.status === 'disabled') throw new AppError(470, MESSAGES.apeKeyDisabled);
    return { type: 'ApeKey', uid: check.uid, email: '', apeKeyId: check.keyId };
  }

  /** `Uid <uid>|<email>`: development only; treated as a fresh Bearer token of that user. */
  private uid(credential: string): AuthContext {
    if (this.env.mode !== 'dev') throw new AppError(401, MESSAGES.unauthorized);
    const bar = credential.indexOf('|');
    const uid = (bar === -1 ? credential : credential.slice(0, bar)).trim();
    const email = bar === -1 ? '' : credential.slice(bar + 1).trim();
    if (!isValidUid(uid)) throw new AppError(401, MESSAGES.unauthorized);
    return { type: 'Bearer', uid, email };
  }
}
