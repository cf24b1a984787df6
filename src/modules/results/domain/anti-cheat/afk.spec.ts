import { afkVerdict } from './afk';

describe('afkDuration against testDuration, in hundredths (issue 24 item 8)', () => {
  it.each([
    // Exactly one second over: refused, whatever the floats' subtraction gives (0.99999… and 1.0000000000000142).
    [16.13, 15.13, 'senseless'],
    [119.84, 118.84, 'senseless'],
    [121.12, 120.11, 'senseless'],
    // Under a second over: the client's rounding, clamped.
    [16.12, 15.13, 'clamp'],
    [120.12, 120.11, 'clamp'],
    [15.99, 15, 'clamp'],
    // Not over at all.
    [15.13, 15.13, 'fits'],
    [0, 15, 'fits'],
    [14, 15, 'fits'],
  ] as const)('afk %p on a %p s test: %s', (afk, test, verdict) => {
    expect(afkVerdict(afk, test)).toBe(verdict);
  });

  it('the float subtraction the rule used to make disagrees on the two pairs (why hundredths)', () => {
    expect(16.13 - 15.13 >= 1).toBe(false);
    expect(119.84 - 118.84 >= 1).toBe(true);
  });
});
