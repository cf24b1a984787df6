// The test's own OIDC issuer: an RS256 key pair made for this run, its public half served by the stub container as
// a JWKS, ID tokens signed here with jose (as test/support/jwks.ts does for the e2e suites).
import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const ISSUER = 'https://issuer.container-test.invalid';
export const AUDIENCE = 'typing-container-test';

export async function createIssuer() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const kid = `container-test-${randomBytes(4).toString('hex')}`;
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' };
  return {
    jwks: JSON.stringify({ keys: [jwk] }),
    /** A fresh ID token (issued and signed in now) for this uid. */
    token(uid, email) {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ email, auth_time: now })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setSubject(uid)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(now)
        .setExpirationTime(now + 3600)
        .sign(privateKey);
    },
  };
}
