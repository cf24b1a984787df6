/** What a verified ID token tells us. Times in milliseconds. */
export interface VerifiedToken {
  uid: string;
  email: string;
  issuedAt: number;
  /** When the user last actually signed in; equals `issuedAt` when the provider does not say. */
  authTime: number;
  expiresAt: number;
}

export type TokenErrorReason = 'expired' | 'revoked' | 'invalid' | 'user-not-found' | 'provider-unavailable';

export class TokenError extends Error {
  constructor(
    readonly reason: TokenErrorReason,
    detail?: string,
  ) {
    super(detail ?? reason);
    this.name = 'TokenError';
  }
}

/**
 * The identity provider behind Bearer tokens (Firebase Auth by default, or any OIDC issuer). The service never
 * stores passwords; account operations that live at the provider go through here.
 */
export abstract class IdentityProvider {
  abstract readonly kind: string;
  /** Throws `TokenError`. `checkRevoked` asks the provider whether the session was revoked (no cache). */
  abstract verifyIdToken(token: string, checkRevoked: boolean): Promise<VerifiedToken>;
  /** Ends every session of the user at the provider (where the provider supports it). */
  abstract revokeRefreshTokens(uid: string): Promise<void>;
  abstract deleteUser(uid: string): Promise<void>;
  abstract updateEmail(uid: string, email: string): Promise<void>;
  abstract updatePassword(uid: string, password: string): Promise<void>;
  /**
   * A password-reset link for the email, or null when the provider has no account with it or makes no links (an OIDC
   * issuer resets passwords on its own pages).
   */
  abstract generatePasswordResetLink(email: string): Promise<string | null>;
}

/**
 * Used in dev when no provider is configured: every Bearer token is refused, `Uid` auth still works. Password-reset
 * links are made up (the dev mailer logs them), so the client's flow completes, as with verification links.
 */
export class NoIdentityProvider extends IdentityProvider {
  readonly kind = 'none';
  verifyIdToken(): Promise<VerifiedToken> {
    return Promise.reject(new TokenError('invalid', 'no identity provider is configured'));
  }
  revokeRefreshTokens(): Promise<void> {
    return Promise.resolve();
  }
  deleteUser(): Promise<void> {
    return Promise.resolve();
  }
  updateEmail(): Promise<void> {
    return Promise.resolve();
  }
  updatePassword(): Promise<void> {
    return Promise.resolve();
  }
  generatePasswordResetLink(email: string): Promise<string | null> {
    return Promise.resolve(`http://localhost:5005/dev/reset-password?email=${encodeURIComponent(email)}`);
  }
}
