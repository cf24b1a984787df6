import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export const BENCH_ISSUER = 'https://issuer.bench.local';
export const BENCH_AUDIENCE = 'typing-platform-bench';
const KID = 'bench-key-1';
const TOKEN_LIFETIME_S = 3600;

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString('base64url');
}

/**
 * The benchmark's identity provider: an RS256 key pair, a JWKS endpoint the server verifies against (OIDC), and
 * real signed ID tokens. Signing is synchronous (node:crypto), so the load generator can mint tokens in bulk before a
 * scenario without async overhead.
 */
export class BenchIssuer {
  private readonly privateKey: KeyObject;
  private readonly jwk: Record<string, unknown>;
  private server: Server | null = null;
  url = '';

  constructor() {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.privateKey = privateKey;
    this.jwk = { ...publicKey.export({ format: 'jwk' }), kid: KID, alg: 'RS256', use: 'sig' };
  }

  async start(): Promise<void> {
    this.server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [this.jwk] }));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    const address = this.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    this.url = `http://127.0.0.1:${port}/jwks.json`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** A fresh ID token for `uid`, valid for an hour. */
  token(uid: string, email = `${uid}@bench.test`): string {
    const now = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ alg: 'RS256', kid: KID, typ: 'JWT' }));
    const payload = base64url(
      JSON.stringify({
        iss: BENCH_ISSUER,
        aud: BENCH_AUDIENCE,
        sub: uid,
        email,
        iat: now,
        auth_time: now,
        exp: now + TOKEN_LIFETIME_S,
      }),
    );
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), this.privateKey);
    return `${header}.${payload}.${base64url(signature)}`;
  }
}
