import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureCheck = 'valid' | 'missing' | 'invalid';

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/**
 * Checks a GitHub `X-Hub-Signature-256` header (`sha256=<hex HMAC-SHA256 of the raw body>`). Compares the digests
 * in constant time; a header of the wrong shape is simply invalid, never compared.
 */
export function checkGithubSignature(
  secret: string,
  rawBody: string,
  header: string | string[] | undefined,
): SignatureCheck {
  if (typeof header !== 'string' || header.trim() === '') return 'missing';
  const match = SIGNATURE.exec(header.trim());
  if (!match?.[1]) return 'invalid';
  const presented = Buffer.from(match[1], 'hex');
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  return presented.length === expected.length && timingSafeEqual(presented, expected) ? 'valid' : 'invalid';
}

/** The header value GitHub would send for `rawBody` (tests and tooling). */
export function githubSignature(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex')}`;
}
