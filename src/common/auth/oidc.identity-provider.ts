import { Logger } from '@nestjs/common';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../clock';
import { IdentityProvider, TokenError, type VerifiedToken } from './identity-provider';
import { assertTokenTimes } from './token-times';
import { isValidUid } from './uid';

export interface OidcSettings {
  issuer: string;
  audience: string;
  jwksUrl: string;
}

/**
 * Any OpenID Connect issuer, verified against its JWKS (keys fetched once and cached by jose, refetched on an
 * unknown `kid`). Account operations live at the issuer; the ones it cannot do through a standard API are logged
 * no-ops (revocation is enforced by the service's own revocation store instead).
 */
export class OidcIdentityProvider extends IdentityProvider {
  readonly kind = 'oidc';
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;
  private readonly logger = new Logger('OidcIdentityProvider');

  constructor(
    private readonly settings: OidcSettings,
    private readonly clock: Clock,
  ) {
    super();
    this.jwks = createRemoteJWKSet(new URL(settings.jwksUrl), { timeoutDuration: 5000 });
  }

  async verifyIdToken(token: string): Promise<VerifiedToken> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.jwks, {
        issuer: this.settings.issuer,
        audience: this.settings.audience,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['sub', 'iat', 'exp'],
      }));
    } catch (e) {
      if (e instanceof joseErrors.JWTExpired) throw new TokenError('expired');
      if (e instanceof joseErrors.JWKSTimeout) throw new TokenError('provider-unavailable', e.message);
      throw new TokenError('invalid', (e as Error).message);
    }
    const sub = payload.sub ?? '';
    // Any subject the issuer may mint (UUIDs, `auth0|…`, up to 255 characters) is a uid.
    if (!isValidUid(sub)) throw new TokenError('invalid', 'bad subject');
    const issuedAt = (payload.iat ?? 0) * 1000;
    const authTime = typeof payload.auth_time === 'number' ? payload.auth_time * 1000 : issuedAt;
    const verified: VerifiedToken = {
      uid: sub,
      email: typeof payload.email === 'string' ? payload.email : '',
      issuedAt,
      authTime,
      expiresAt: (payload.exp ?? 0) * 1000,
    };
    // jose checks `exp` and `nbf` but not an `iat` ahead of the clock (TokenVerifierService checks again for every
    // provider; here so the provider is safe on its own).
    assertTokenTimes(verified, this.clock.now());
    return verified;
  }

  revokeRefreshTokens(uid: string): Promise<void> {
    this.logger.log(
      { uid },
      'session revocation recorded locally; the OIDC issuer keeps its own refresh tokens',
    );
    return Promise.resolve();
  }
  deleteUser(uid: string): Promise<void> {
    this.logger.log({ uid }, 'account deleted in the service; delete it at the OIDC issuer too');
    return Promise.resolve();
  }
  updateEmail(uid: string): Promise<void> {
    this.logger.log({ uid }, 'email change recorded in the service; the OIDC issuer manages its own copy');
    return Promise.resolve();
  }
  updatePassword(uid: string): Promise<void> {
    this.logger.log({ uid }, 'password changes are made at the OIDC issuer');
    return Promise.resolve();
  }
  generatePasswordResetLink(): Promise<string | null> {
    return Promise.resolve(null);
  }
}
