import { Injectable } from '@nestjs/common';

/** The parts of a presented ApeKey: `base64url("<keyId>.<secret>")`. */
export interface PresentedApeKey {
  keyId: string;
  secret: string;
  /** The header value as presented, for cache keys (hash it; never store it). */
  raw: string;
}

const KEY_ID = /^[A-Za-z0-9_-]{1,64}$/;
const SECRET = /^[A-Za-z0-9_-]{16,512}$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Parses the ApeKey header value; null when its structure is invalid (471). */
export function parseApeKey(raw: string): PresentedApeKey | null {
  if (raw.length === 0 || raw.length > 1024 || !BASE64URL.test(raw)) return null;
  const decoded = Buffer.from(raw, 'base64url').toString('utf8');
  const dot = decoded.indexOf('.');
  if (dot <= 0) return null;
  const keyId = decoded.slice(0, dot);
  const secret = decoded.slice(dot + 1);
  if (!KEY_ID.test(keyId) || !SECRET.test(secret)) return null;
  return { keyId, secret, raw };
}

export function formatApeKey(keyId: string, secret: string): string {
  return Buffer.from(`${keyId}.${secret}`, 'utf8').toString('base64url');
}

export type ApeKeyCheck =
  { status: 'valid'; uid: string; keyId: string } | { status: 'not-found' } | { status: 'disabled' };

export interface ApeKeyVerifier {
  verify(key: PresentedApeKey): Promise<ApeKeyCheck>;
}

/**
 * Where the ApeKey feature plugs its verifier into the auth guard without the guard depending on that module.
 * Until one registers, every well-formed key is unknown (404 ApeKey not found).
 */
@Injectable()
export class ApeKeyAuthenticator {
  private verifier: ApeKeyVerifier | null = null;

  register(verifier: ApeKeyVerifier): void {
    this.verifier = verifier;
  }

  verify(key: PresentedApeKey): Promise<ApeKeyCheck> {
    return this.verifier ? this.verifier.verify(key) : Promise.resolve({ status: 'not-found' });
  }
}
