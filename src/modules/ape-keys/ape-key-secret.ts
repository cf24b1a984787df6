import { createHash, randomBytes } from 'node:crypto';

/** A new secret: `bytes` CSPRNG bytes, base64url (spec "ApeKeys"). */
export function newApeKeySecret(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * How a stored hash was made (the `hash_scheme` column): `sha256-bcrypt` for keys made here (`bcryptInput`), `bcrypt`
 * for keys imported from the original platform, which hashes the secret itself (its secrets are 32 characters, well
 * within bcrypt's 72 bytes).
 */
export type ApeKeyHashScheme = 'sha256-bcrypt' | 'bcrypt';

/** What the stored hash of a key of `scheme` was made from. */
export function bcryptInputFor(scheme: ApeKeyHashScheme, secret: string): string {
  return scheme === 'bcrypt' ? secret : bcryptInput(secret);
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
