import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FirebaseIdentityProvider } from './firebase.identity-provider';
import { TokenError } from './identity-provider';
import { MAX_CLOCK_SKEW_MS } from './token-times';

const PROJECT = 'demo-typing';

/** An unsigned emulator-style token (firebase-admin accepts alg "none" when FIREBASE_AUTH_EMULATOR_HOST is set). */
function unsignedToken(iat: number, authTime = iat): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const claims = {
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    sub: 'firebase-uid',
    user_id: 'firebase-uid',
    auth_time: Math.floor(authTime / 1000),
    iat: Math.floor(iat / 1000),
    exp: Math.floor(iat / 1000) + 3600,
  };
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.`;
}

/**
 * The token-time rule on the Firebase provider itself, without the Auth emulator: in emulator mode firebase-admin
 * skips the signature and asks the emulator's `accounts:lookup` whether the user exists, which a local stand-in
 * answers. The real emulator runs in test/firebase/firebase-identity.firebase-spec.ts (`npm run test:firebase`).
 */
describe('FirebaseIdentityProvider token times', () => {
  let emulator: Server;
  const saved = process.env.FIREBASE_AUTH_EMULATOR_HOST;

  beforeAll(async () => {
    emulator = createServer((req, res) => {
      req.resume();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ users: [{ localId: 'firebase-uid', email: 'f@example.test' }] }));
    });
    await new Promise<void>((resolve) => emulator.listen(0, '127.0.0.1', resolve));
    process.env.FIREBASE_AUTH_EMULATOR_HOST = `127.0.0.1:${(emulator.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => emulator.close(resolve));
    if (saved === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    else process.env.FIREBASE_AUTH_EMULATOR_HOST = saved;
  });

  // firebase-admin checks `exp` against the real clock, so tokens are minted around the real now and the provider's
  // clock is moved instead.
  it('accepts a token issued now', async () => {
    const real = Date.now();
    const p = new FirebaseIdentityProvider({ projectId: PROJECT }, () => real);
    try {
      await expect(p.verifyIdToken(unsignedToken(real - 1000), false)).resolves.toMatchObject({
        uid: 'firebase-uid',
      });
    } finally {
      await p.close();
    }
  });

  it('refuses a token whose iat is a year ahead of the clock', async () => {
    const real = Date.now();
    const lagging = new FirebaseIdentityProvider({ projectId: PROJECT }, () => real - 365 * 86_400_000);
    try {
      await expect(lagging.verifyIdToken(unsignedToken(real - 1000), false)).rejects.toEqual(
        new TokenError('invalid', 'token issued in the future'),
      );
    } finally {
      await lagging.close();
    }
  });

  it('refuses a sign-in time beyond the skew', async () => {
    const real = Date.now();
    const p = new FirebaseIdentityProvider({ projectId: PROJECT }, () => real);
    try {
      const token = unsignedToken(real - 1000, real + MAX_CLOCK_SKEW_MS + 10_000);
      await expect(p.verifyIdToken(token, false)).rejects.toEqual(
        new TokenError('invalid', 'sign-in time in the future'),
      );
    } finally {
      await p.close();
    }
  });
});
