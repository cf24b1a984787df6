import { exceedsJsonDepth } from './json-limits';

describe('exceedsJsonDepth', () => {
  it.each([
    ['{}', 1, false],
    ['{"a":[1]}', 2, false],
    ['{"a":[1]}', 1, true],
    ['[[[]]]', 3, false],
    ['[[[]]]', 2, true],
    ['[[],[],[]]', 2, false],
    // Brackets inside strings (escaped quotes included) do not count.
    ['{"a":"[[[[{{{{"}', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['"\\\\"', 0, false],
    ['["\\\\",[[[]]]]', 3, true],
  ])('%s with limit %d → %s', (text, limit, expected) => {
    expect(exceedsJsonDepth(text, limit)).toBe(expected);
  });

  it('scans 1,500 levels without recursion', () => {
    expect(exceedsJsonDepth(`${'['.repeat(1500)}${']'.repeat(1500)}`)).toBe(true);
  });
});
