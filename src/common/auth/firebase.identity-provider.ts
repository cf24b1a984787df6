import type { OnModuleDestroy } from '@nestjs/common';
import type { Auth } from 'firebase-admin/auth';
import { openFirebaseAuth, type FirebaseAuthClient, type FirebaseSettings } from './firebase-admin';
import { IdentityProvider, TokenError, type VerifiedToken } from './identity-provider';
import { assertTokenTimes } from './token-times';

export type { FirebaseSettings } from './firebase-admin';

function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
}

/**
 * Firebase Auth through firebase-admin. Honors FIREBASE_AUTH_EMULATOR_HOST, which is how the integration test runs it
 * against the Auth emulator.
 */
export class FirebaseIdentityProvider extends IdentityProvider implements OnModuleDestroy {
  readonly kind = 'firebase';
  private readonly client: FirebaseAuthClient;
  private readonly auth: Auth;

  constructor(
    settings: FirebaseSettings,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.client = openFirebaseAuth(settings, 'typing-platform');
    this.auth = this.client.auth;
  }

  async verifyIdToken(token: string, checkRevoked: boolean): Promise<VerifiedToken> {
    let verified: VerifiedToken;
    try {
      const decoded = await this.auth.verifyIdToken(token, checkRevoked);
      verified = {
        uid: decoded.uid,
        email: decoded.email ?? '',
        issuedAt: decoded.iat * 1000,
        authTime: (decoded.auth_time ?? decoded.iat) * 1000,
        expiresAt: decoded.exp * 1000,
      };
    } catch (e) {
      const code = errorCode(e);
      if (code === 'auth/id-token-expired') throw new TokenError('expired');
      if (code === 'auth/id-token-revoked' || code === 'auth/user-disabled') throw new TokenError('revoked');
      if (code === 'auth/user-not-found') throw new TokenError('user-not-found');
      if (code === 'auth/internal-error') throw new TokenError('provider-unavailable', (e as Error).message);
      throw new TokenError('invalid', (e as Error).message);
    }
    // firebase-admin (jsonwebtoken) checks `exp` but neither `iat` nor `auth_time` against the clock.
    assertTokenTimes(verified, this.now());
    return verified;
  }

  async revokeRefreshTokens(uid: string): Promise<void> {
    await this.auth.revokeRefreshTokens(uid);
  }

  async deleteUser(uid: string): Promise<void> {
    try {
      await this.auth.deleteUser(uid);
    } catch (e) {
      if (errorCode(e) !== 'auth/user-not-found') throw e;
    }
  }

  async updateEmail(uid: string, email: string): Promise<void> {
    await this.auth.updateUser(uid, { email, emailVerified: false });
  }

  async updatePassword(uid: string, password: string): Promise<void> {
    await this.auth.updateUser(uid, { password });
  }

  async generatePasswordResetLink(email: string): Promise<string | null> {
    try {
      return await this.auth.generatePasswordResetLink(email);
    } catch (e) {
      if (errorCode(e) === 'auth/user-not-found' || errorCode(e) === 'auth/email-not-found') return null;
      throw e;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }

  /** Nest's shutdown: the firebase-admin app goes with the server. */
  onModuleDestroy(): Promise<void> {
    return this.close();
  }
}
