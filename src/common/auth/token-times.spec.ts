import { TokenError, type VerifiedToken } from './identity-provider';
import { assertTokenTimes, MAX_CLOCK_SKEW_MS } from './token-times';

const NOW = 1_800_000_000_000;
const token = (issuedAt: number, authTime = issuedAt): VerifiedToken => ({
  uid: 'u',
  email: '',
  issuedAt,
  authTime,
  expiresAt: issuedAt + 3600_000,
});

describe('assertTokenTimes', () => {
  it.each([
    ['issued now', token(NOW)],
    ['issued an hour ago', token(NOW - 3600_000)],
    ['issued within the skew ahead', token(NOW + MAX_CLOCK_SKEW_MS)],
    ['signed in within the skew ahead', token(NOW, NOW + MAX_CLOCK_SKEW_MS)],
  ])('accepts a token %s', (_label, t) => {
    expect(() => assertTokenTimes(t, NOW)).not.toThrow();
  });

  it.each([
    ['issued a year ahead', token(NOW + 365 * 86_400_000)],
    ['issued just beyond the skew', token(NOW + MAX_CLOCK_SKEW_MS + 1000)],
    ['with a sign-in time beyond the skew', token(NOW, NOW + MAX_CLOCK_SKEW_MS + 1000)],
  ])('refuses a token %s as invalid', (_label, t) => {
    expect(() => assertTokenTimes(t, NOW)).toThrow(TokenError);
    try {
      assertTokenTimes(t, NOW);
    } catch (e) {
      expect((e as TokenError).reason).toBe('invalid');
    }
  });
});
