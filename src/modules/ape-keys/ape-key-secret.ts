import { createHash, randomBytes } from 'node:crypto';

/** A new secret: `bytes` CSPRNG bytes, base64url (spec "ApeKeys"). */
export function newApeKeySecret(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * What goes into bcrypt for a secret. bcrypt reads only the first 72 bytes of its input, and `apeKeys.apeKeyBytes`
 * may make secrets longer than that; a SHA-256 digest (44 characters) keeps every character of the secret significant.
 */
export function bcryptInput(secret: string): string {
  return createHash('sha256').update(secret).digest('base64');
}

/** Cache key of a presented key: its SHA-256, so the cache never holds a usable key. */
export function presentedKeyHash(raw: string): string {
  return createHash('sha256').update(raw).digest('base64url');
}
