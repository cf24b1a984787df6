import fc from 'fast-check';
import { exceedsJsonDepth } from './json-limits';

/** Nesting depth of a parsed value: 1 per array or object. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Array.isArray(value) ? value : Object.values(value as object);
  return 1 + Math.max(0, ...children.map(depthOf));
}

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

  it('agrees with the depth of the parsed value, for any JSON text and limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, limit) => {
        const text = JSON.stringify(value);
        expect(exceedsJsonDepth(text, limit)).toBe(depthOf(value) > limit);
      }),
      { seed: 30, numRuns: 2000 },
    );
  });
});
