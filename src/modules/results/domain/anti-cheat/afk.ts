/**
 * `afkDuration` against `testDuration` (docs/decisions/0029-afk-and-streak-offset.md): the client rounds both to
 * hundredths separately, so time away above the test's length by less than a second is that rounding (clamped); by a
 * second or more the result makes no sense (463). Compared in whole hundredths: subtracting the floats made 16.13 −
 * 15.13 = 0.99999… (clamped) while 119.84 − 118.84 = 1.0000000000000142 (refused), though both are exactly one
 * second.
 */
export type AfkVerdict = 'fits' | 'clamp' | 'senseless';

export function afkVerdict(afkDuration: number, testDuration: number): AfkVerdict {
  if (afkDuration <= testDuration) return 'fits';
  const excess = Math.round(afkDuration * 100) - Math.round(testDuration * 100);
  return excess >= 100 ? 'senseless' : 'clamp';
}
