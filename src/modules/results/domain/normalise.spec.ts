import { normaliseResult } from './normalise';

describe('normaliseResult', () => {
  it.each([
    // afk over the duration by less than a second is the client's rounding: clamped
    [15.13, 16.12, 15.13],
    [118.84, 119.83, 118.84],
    // within the duration, or a second or more over it (the judge refuses that), left as sent
    [15, 3, 3],
    [118.84, 119.84, 119.84],
  ])('testDuration %p, afkDuration %p → %p', (testDuration, afkDuration, expected) => {
    expect(normaliseResult({ testDuration, afkDuration, tags: [] }).afkDuration).toBe(expected);
  });

  it('keeps one of each tag, in order', () => {
    expect(normaliseResult({ testDuration: 15, afkDuration: 0, tags: ['a', 'b', 'a'] }).tags).toEqual([
      'a',
      'b',
    ]);
  });

  it('returns a copy when it changes something, leaving the body as sent', () => {
    const sent = { testDuration: 15, afkDuration: 15.5, tags: ['a', 'a'] };
    const normalised = normaliseResult(sent);
    expect(normalised).not.toBe(sent);
    expect(sent).toEqual({ testDuration: 15, afkDuration: 15.5, tags: ['a', 'a'] });
    expect(normalised).toEqual({ testDuration: 15, afkDuration: 15, tags: ['a'] });
  });

  it('returns the result itself when nothing needs changing', () => {
    const sent = { testDuration: 15, afkDuration: 1, tags: ['a'] };
    expect(normaliseResult(sent)).toBe(sent);
  });
});
