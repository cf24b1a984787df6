import {
  createEmailVerificationLinks,
  type FirebaseEmailVerificationLinks,
} from '../../modules/users/email/email-verification-links';
import type { AppEnv } from '../../config/env';
import { SystemClock } from '../clock';
import { createIdentityProvider } from './auth.module';
import type { FirebaseIdentityProvider } from './firebase.identity-provider';

// Counts the loads of firebase-admin's entry points; the modules themselves are the real ones.
const mockLoads: string[] = [];
jest.mock('firebase-admin/app', () => {
  mockLoads.push('app');
  return jest.requireActual('firebase-admin/app') as unknown;
});
jest.mock('firebase-admin/auth', () => {
  mockLoads.push('auth');
  return jest.requireActual('firebase-admin/auth') as unknown;
});

const env = (authProvider: AppEnv['authProvider']) =>
  ({
    authProvider,
    firebase: { projectId: 'demo-typing' },
    oidc: {
      issuer: 'https://issuer.example.test',
      audience: 'typing-platform',
      jwksUrl: 'http://127.0.0.1:1/jwks.json',
    },
  }) as AppEnv;

describe('firebase-admin is loaded only for the Firebase identity provider', () => {
  it('is not loaded by importing the providers, nor for OIDC or no provider', () => {
    const clock = new SystemClock();
    for (const kind of ['oidc', 'none'] as const) {
      expect(createIdentityProvider(env(kind), clock).kind).toBe(kind);
      expect(createEmailVerificationLinks(env(kind)).handledByProvider()).toBe(kind === 'oidc');
    }
    expect(mockLoads).toEqual([]);
  });

  it('is loaded when Firebase is the provider, and its apps close', async () => {
    const provider = createIdentityProvider(env('firebase'), new SystemClock()) as FirebaseIdentityProvider;
    const links = createEmailVerificationLinks(env('firebase')) as FirebaseEmailVerificationLinks;
    try {
      expect(mockLoads).toEqual(['app', 'auth']);
      expect(provider.kind).toBe('firebase');
    } finally {
      // The app closes once: the provider's own close, then Nest's shutdown hook, do not fail.
      await provider.close();
      await provider.onModuleDestroy();
      await links.onModuleDestroy();
    }
  });
});
