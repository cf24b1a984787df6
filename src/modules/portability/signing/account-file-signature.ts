import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  timingSafeEqual,
  verify,
  type KeyObject,
} from 'node:crypto';
import { EXPORT_FORMAT } from '../export/export-format';

/**
 * The signature of an account file (docs/account-files.md): the file's last line,
 * `{"type":"signature","data":SignatureData}`, after the `end` line. It signs, with the exporting instance's Ed25519
 * key (node:crypto), a short text naming the format, the instance id and the SHA-512 digest of every byte of the file
 * before the signature line (Ed25519 signs a whole message at once; the digest lets an export of any size be signed
 * as it streams). One byte changed anywhere before it, or in it, and the signature no longer verifies.
 */
export const SIGNATURE_TYPE = 'signature';

export interface SignatureData {
  algorithm: 'Ed25519';
  digest: 'SHA-512';
  /** The exporting instance's id, as it publishes it beside its public key. */
  instanceId: string;
  /** The raw 32-byte Ed25519 public key, base64url. */
  publicKey: string;
  /** The 64-byte signature, base64url. */
  value: string;
}

/** A file's SHA-512 as it streams: the bytes of every line before the signature line. */
export const newFileDigest = () => createHash('sha512');

/** The message the key signs (never the file itself). */
export function signedMessage(instanceId: string, digest: Buffer): Buffer {
  return Buffer.from(`${EXPORT_FORMAT} signature 1\n${instanceId}\n${digest.toString('hex')}\n`, 'utf8');
}

/** An Ed25519 public key from its raw 32 bytes (base64url); null when it is not one. */
export function publicKeyFrom(raw: string): KeyObject | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(raw)) return null;
  try {
    return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** The raw public key (base64url) of an Ed25519 key, private or public. */
export function rawPublicKey(key: KeyObject): string {
  const jwk = (key.type === 'private' ? createPublicKey(key) : key).export({ format: 'jwk' });
  return jwk.x as string;
}

/** How people compare keys by eye: `SHA256:` and the base64 of the raw key's SHA-256 (as SSH prints its keys). */
export function fingerprint(publicKey: string): string {
  const digest = createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}

/** Whether two public keys (base64url) are the same key (compared as bytes, in constant time). */
export function sameKey(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a, 'base64url'), Buffer.from(b, 'base64url')];
  return x.length === y.length && timingSafeEqual(x, y);
}

export class SigningKeyError extends Error {}

/** An Ed25519 private key from PKCS#8, as PEM or as the base64 of its DER (EXPORT_SIGNING_KEY). */
export function privateKeyFrom(text: string): KeyObject {
  let key: KeyObject;
  try {
    key = text.includes('-----BEGIN')
      ? createPrivateKey({ key: text.replace(/\\n/g, '\n'), format: 'pem' })
      : createPrivateKey({ key: Buffer.from(text, 'base64'), format: 'der', type: 'pkcs8' });
  } catch {
    throw new SigningKeyError('the signing key is not a PKCS#8 private key (PEM, or the base64 of its DER)');
  }
  if (key.asymmetricKeyType !== 'ed25519') throw new SigningKeyError('the signing key is not an Ed25519 key');
  return key;
}

/** A new key pair: the private key as the base64 of its PKCS#8 DER, the public key raw (base64url). */
export function newKeyPair(): { privateKey: string; publicKey: string } {
  const { privateKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    publicKey: rawPublicKey(privateKey),
  };
}

/** This instance's signing key, with the id it signs under. */
export class InstanceKey {
  readonly publicKey: string;

  constructor(
    readonly instanceId: string,
    private readonly privateKey: KeyObject,
  ) {
    this.publicKey = rawPublicKey(privateKey);
  }

  /** The signature line (with its newline) for a file whose bytes before it have this SHA-512. */
  signatureLine(digest: Buffer): string {
    const value = sign(null, signedMessage(this.instanceId, digest), this.privateKey).toString('base64url');
    const data: SignatureData = {
      algorithm: 'Ed25519',
      digest: 'SHA-512',
      instanceId: this.instanceId,
      publicKey: this.publicKey,
      value,
    };
    return `${JSON.stringify({ type: SIGNATURE_TYPE, data })}\n`;
  }
}

/** What a file's last line says of it. */
export type SignatureCheck =
  | { state: 'unsigned' }
  /** A signature line that does not verify: the file (or the line) changed since it was signed, or was never signed. */
  | { state: 'invalid'; reason: string }
  | { state: 'valid'; instanceId: string; publicKey: string };

/** Whether a line is a signature line (not necessarily a sound one). */
export function isSignatureLine(line: string): boolean {
  return line.startsWith(`{"type":"${SIGNATURE_TYPE}"`);
}

/**
 * Checks the file's last line against the digest of the bytes before it. A last line that is not a signature line
 * means an unsigned file (format version 1 before signing, or the line removed).
 */
export function checkSignature(lastLine: string, digest: Buffer): SignatureCheck {
  if (!isSignatureLine(lastLine)) return { state: 'unsigned' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(lastLine);
  } catch {
    return { state: 'invalid', reason: 'the signature line is not JSON (cut off or edited)' };
  }
  const data = (parsed as { data?: Partial<SignatureData> }).data;
  if (
    typeof data !== 'object' ||
    data === null ||
    data.algorithm !== 'Ed25519' ||
    data.digest !== 'SHA-512' ||
    typeof data.instanceId !== 'string' ||
    typeof data.publicKey !== 'string' ||
    typeof data.value !== 'string'
  )
    return { state: 'invalid', reason: 'the signature line is not an Ed25519 signature of this format' };
  const key = publicKeyFrom(data.publicKey);
  if (key === null) return { state: 'invalid', reason: 'the signature line holds no Ed25519 public key' };
  const value = Buffer.from(data.value, 'base64url');
  if (!/^[A-Za-z0-9_-]{86}$/.test(data.value) || value.length !== 64)
    return { state: 'invalid', reason: 'the signature is not 64 bytes (cut off or edited)' };
  if (!verify(null, signedMessage(data.instanceId, digest), key, value))
    return {
      state: 'invalid',
      reason: 'the file changed since it was signed (the signature does not match its bytes)',
    };
  return { state: 'valid', instanceId: data.instanceId, publicKey: data.publicKey };
}
