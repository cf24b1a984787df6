import { hasPremium } from './premium';

describe('hasPremium (spec "Rules for premium" rule 2)', () => {
  const now = 1_800_000_000_000;
  it.each([
    ['absent (null)', null, false],
    ['absent (undefined)', undefined, false],
    ['lifetime (-1)', -1, true],
    ['expiry in the future', now + 1, true],
    ['expiry exactly now', now, false],
    ['expired', now - 1, false],
    ['zero', 0, false],
  ])('%s → %s', (_label, expiresAt, expected) => {
    expect(hasPremium(expiresAt, now)).toBe(expected);
  });
});
