import fc from 'fast-check';
import sjson from 'secure-json-parse';
import { exceedsJsonDepth, mayHidePrototypeKeys } from './json-limits';

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

describe('mayHidePrototypeKeys', () => {
  const strict = (text: string) =>
    sjson.parse(text, null, { protoAction: 'error', constructorAction: 'error' });

  it.each([
    ['{"__proto__":{"x":1}}', true],
    ['{"\\u005f_proto__":{"x":1}}', true],
    ['{"constructor":{"prototype":{"x":1}}}', true],
    ['{"\\u0063onstructor":{"prototype":{"x":1}}}', true],
    // Escaped backslashes or a harmless escape are enough to send a text to the full check.
    ['{"a":"\\\\u"}', true],
    ['{"a":"\\u00e9"}', true],
    ['{"result":{"wpm":61.10000000000002,"tags":[],"mode":"time"}}', false],
    ['[1,2,{"a":null}]', false],
  ])('%s: %s', (text, expected) => {
    expect(mayHidePrototypeKeys(text)).toBe(expected);
  });

  it('is true of every text the strict parser refuses for a prototype key', () => {
    for (const text of [
      '{"__proto__":{}}',
      '{"a":{"\\u005F\\u005Fproto__":1}}',
      '{"constructor":{"prototype":1}}',
    ]) {
      expect(() => strict(text)).toThrow();
      expect(mayHidePrototypeKeys(text)).toBe(true);
    }
  });

  it('where it is false, JSON.parse gives what the strict parser gives', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        if (mayHidePrototypeKeys(text)) return;
        expect(JSON.parse(text)).toEqual(strict(text));
      }),
      { numRuns: 500 },
    );
  });
});
