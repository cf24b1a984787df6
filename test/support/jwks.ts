import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { closeWhenFileEnds } from './file-resources';

export const TEST_ISSUER = 'https://issuer.test.local';
export const TEST_AUDIENCE = 'typing-platform-test';

interface Jwks {
  url: string;
  privateKey: CryptoKey;
  kid: string;
  server: Server;
}

let shared: Promise<Jwks> | null = null;

/**
 * A local JWKS endpoint with a freshly generated RS256 key, shared by every app in this test file and closed when the
 * file ends (its request handler would otherwise keep the file's modules in memory for the rest of the run).
 */
export function testJwks(): Promise<Jwks> {
  shared ??= (async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const kid = 'test-key-1';
    const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeWhenFileEnds('JWKS server', async () => {
      shared = null;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return { url: `http://127.0.0.1:${port}/jwks.json`, privateKey, kid, server };
  })();
  return shared;
}

export interface TokenOptions {
  email?: string;
  /** Issued-at, ms. Defaults to the app clock's now. */
  issuedAt?: number;
  /** Last sign-in, ms. Defaults to `issuedAt`. */
  authTime?: number;
  /** Lifetime in ms (spec: 1 hour). */
  lifetimeMs?: number;
  issuer?: string;
  audience?: string;
  /** Sign with another key than the JWKS serves (a forged token). */
  signingKey?: CryptoKey;
}

/** Signs a real RS256 ID token the OIDC identity provider verifies against the local JWKS. */
export async function signIdToken(uid: string, now: number, options: TokenOptions = {}): Promise<string> {
  const jwks = await testJwks();
  const issuedAt = options.issuedAt ?? now;
  const authTime = options.authTime ?? issuedAt;
  const lifetime = options.lifetimeMs ?? 3600_000;
  return new SignJWT({
    email: options.email ?? `${uid}@example.test`,
    auth_time: Math.floor(authTime / 1000),
  })
    .setProtectedHeader({ alg: 'RS256', kid: jwks.kid })
    .setSubject(uid)
    .setIssuer(options.issuer ?? TEST_ISSUER)
    .setAudience(options.audience ?? TEST_AUDIENCE)
    .setIssuedAt(Math.floor(issuedAt / 1000))
    .setExpirationTime(Math.floor((issuedAt + lifetime) / 1000))
    .sign(options.signingKey ?? jwks.privateKey);
}
