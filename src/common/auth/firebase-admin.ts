import { readFileSync } from 'node:fs';
import type * as FirebaseApp from 'firebase-admin/app';
import type * as FirebaseAuth from 'firebase-admin/auth';

export interface FirebaseSettings {
  projectId: string;
  /** A service-account JSON document or a path to one; omit to use application-default credentials or the emulator. */
  serviceAccount?: string;
}

/** firebase-admin's Auth on an app of its own, and how to let that app go (once; later calls wait for the same). */
export interface FirebaseAuthClient {
  auth: FirebaseAuth.Auth;
  close(): Promise<void>;
}

function loadServiceAccount(value: string): FirebaseApp.ServiceAccount {
  const json = value.trimStart().startsWith('{') ? value : readFileSync(value, 'utf8');
  return JSON.parse(json) as FirebaseApp.ServiceAccount;
}

/**
 * Opens firebase-admin's Auth with the identity provider's settings (FIREBASE_PROJECT_ID, FIREBASE_SERVICE_ACCOUNT;
 * the Auth emulator through FIREBASE_AUTH_EMULATOR_HOST), on an app named `<purpose>-<random>` so that several can
 * coexist. The package is loaded here, when Firebase is the identity provider, not when this file is imported: it is
 * about 300 modules, 22 MB of memory and 70 ms of start-up that an OIDC or development server would carry for nothing.
 */
export function openFirebaseAuth(settings: FirebaseSettings, purpose: string): FirebaseAuthClient {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on demand, see above */
  const { cert, deleteApp, initializeApp } = require('firebase-admin/app') as typeof FirebaseApp;
  const { getAuth } = require('firebase-admin/auth') as typeof FirebaseAuth;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const app = initializeApp(
    {
      projectId: settings.projectId,
      ...(settings.serviceAccount ? { credential: cert(loadServiceAccount(settings.serviceAccount)) } : {}),
    },
    `${purpose}-${Math.random().toString(36).slice(2)}`,
  );
  let closed: Promise<void> | undefined;
  return { auth: getAuth(app), close: () => (closed ??= deleteApp(app)) };
}
