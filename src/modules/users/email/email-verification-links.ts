import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Auth } from 'firebase-admin/auth';
import {
  openFirebaseAuth,
  type FirebaseAuthClient,
  type FirebaseSettings,
} from '../../../common/auth/firebase-admin';
import type { AppEnv } from '../../../config/env';

export interface VerificationAccount {
  emailVerified: boolean;
}

/**
 * Where verification links come from (`GET /users/verificationEmail`). Firebase Auth makes them
 * (`generateEmailVerificationLink`) and we mail them; an OIDC issuer runs its own verification, so there is nothing
 * for us to send. Errors keep the provider's `code` (e.g. `auth/too-many-requests`) for the service to translate.
 */
export abstract class EmailVerificationLinks {
  /** True when the identity provider verifies addresses itself (no link of ours to send). */
  abstract handledByProvider(): boolean;
  /** The account at the identity provider, or null when it has none for the uid. */
  abstract account(uid: string): Promise<VerificationAccount | null>;
  abstract generate(email: string): Promise<string>;
}

/**
 * firebase-admin, on an app of its own with the identity provider's settings (FIREBASE_PROJECT_ID,
 * FIREBASE_SERVICE_ACCOUNT; the Auth emulator through FIREBASE_AUTH_EMULATOR_HOST).
 */
export class FirebaseEmailVerificationLinks extends EmailVerificationLinks implements OnModuleDestroy {
  private readonly client: FirebaseAuthClient;
  private readonly auth: Auth;

  constructor(settings: FirebaseSettings) {
    super();
    this.client = openFirebaseAuth(settings, 'typing-platform-verification');
    this.auth = this.client.auth;
  }

  handledByProvider(): boolean {
    return false;
  }

  async account(uid: string): Promise<VerificationAccount | null> {
    try {
      return { emailVerified: (await this.auth.getUser(uid)).emailVerified };
    } catch (e) {
      if ((e as { code?: unknown }).code === 'auth/user-not-found') return null;
      throw e;
    }
  }

  generate(email: string): Promise<string> {
    return this.auth.generateEmailVerificationLink(email);
  }

  onModuleDestroy(): Promise<void> {
    return this.client.close();
  }
}

/** OIDC issuers verify addresses themselves. */
export class ProviderManagedEmailVerification extends EmailVerificationLinks {
  handledByProvider(): boolean {
    return true;
  }
  account(): Promise<VerificationAccount | null> {
    return Promise.resolve(null);
  }
  generate(): Promise<string> {
    return Promise.reject(new Error('the identity provider verifies email addresses itself'));
  }
}

/** Dev without an identity provider: a made-up link (the dev mailer logs it), so the client's flow completes. */
export class DevEmailVerificationLinks extends EmailVerificationLinks {
  private readonly logger = new Logger(DevEmailVerificationLinks.name);
  handledByProvider(): boolean {
    return false;
  }
  account(): Promise<VerificationAccount | null> {
    return Promise.resolve({ emailVerified: false });
  }
  generate(email: string): Promise<string> {
    this.logger.log({ email }, 'dev verification link made up');
    return Promise.resolve(`http://localhost:5005/dev/verify-email?email=${encodeURIComponent(email)}`);
  }
}

export function createEmailVerificationLinks(env: AppEnv): EmailVerificationLinks {
  switch (env.authProvider) {
    case 'firebase':
      return new FirebaseEmailVerificationLinks({
        projectId: env.firebase.projectId as string,
        serviceAccount: env.firebase.serviceAccount,
      });
    case 'oidc':
      return new ProviderManagedEmailVerification();
    default:
      return new DevEmailVerificationLinks();
  }
}
