import { readFileSync } from 'node:fs';
import { cert, deleteApp, initializeApp, type App, type ServiceAccount } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { IdentityProvider, TokenError, type VerifiedToken } from './identity-provider';
import { assertTokenTimes } from './token-times';

export interface FirebaseSettings {
  projectId: string;
  /** A service-account JSON document or a path to one; omit to use application-default credentials or the emulator. */
  serviceAccount?: string;
}

function loadServiceAccount(value: string): ServiceAccount {
  const json = value.trimStart().startsWith('{') ? value : readFileSync(value, 'utf8');
  return JSON.parse(json) as ServiceAccount;
}

function errorCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
}

/**
 * Firebase Auth through firebase-admin. Honors FIREBASE_AUTH_EMULATOR_HOST, which is how the integration test runs it
 * against the Auth emulator.
 */
export class FirebaseIdentityProvider extends IdentityProvider {
  readonly kind = 'firebase';
  private readonly app: App;
  private readonly auth: Auth;

  constructor(
    settings: FirebaseSettings,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.app = initializeApp(
      {
        projectId: settings.projectId,
        ...(settings.serviceAccount ? { credential: cert(loadServiceAccount(settings.serviceAccount)) } : {}),
      },
      `typing-platform-${Math.random().toString(36).slice(2)}`,
    );
    this.auth = getAuth(this.app);
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

  async close(): Promise<void> {
    await deleteApp(this.app);
  }
}
