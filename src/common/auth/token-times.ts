import { TokenError, type VerifiedToken } from './identity-provider';

/**
 * How far a token's `iat` / `auth_time` may lie ahead of our clock. Issuers and replicas disagree by a few seconds;
 * a token from further in the future is forged or minted with a broken clock, and would otherwise count as fresh
 * (`RequireFreshToken`) for as long as it claims.
 */
export const MAX_CLOCK_SKEW_MS = 60_000;

/** Throws `TokenError('invalid')` when the token was issued, or its user signed in, beyond the allowed skew. */
export function assertTokenTimes(token: VerifiedToken, now: number): void {
  if (token.issuedAt > now + MAX_CLOCK_SKEW_MS) throw new TokenError('invalid', 'token issued in the future');
  if (token.authTime > now + MAX_CLOCK_SKEW_MS) throw new TokenError('invalid', 'sign-in time in the future');
}
