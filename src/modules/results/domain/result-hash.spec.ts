import objectHash from 'object-hash';
import { resultHash } from './result-hash';

/** A seeded generator of JSON values: every shape a parsed body can hold, nested a few levels. */
function randomJson(seed: number): Record<string, unknown> {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const text = () =>
    Array.from({ length: Math.floor(next() * 6) }, () =>
      String.fromCodePoint(
        [0x41, 0x7a, 0x3b1, 0x1f412, 0x22, 0x5c, 0x2c, 0x3a][Math.floor(next() * 8)] as number,
      ),
    ).join('');
  const value = (depth: number): unknown => {
    const roll = next();
    if (depth > 3 || roll < 0.3) return Math.round((next() - 0.3) * 100_000) / (next() < 0.5 ? 1 : 100);
    if (roll < 0.45) return text();
    if (roll < 0.55) return next() < 0.5;
    if (roll < 0.6) return null;
    if (roll < 0.8) return Array.from({ length: Math.floor(next() * 5) }, () => value(depth + 1));
    return object(depth + 1);
  };
  const object = (depth: number): Record<string, unknown> =>
    Object.fromEntries(Array.from({ length: Math.floor(next() * 6) }, () => [text(), value(depth)]));
  return object(0);
}

describe('resultHash', () => {
  it.each<[string, unknown]>([
    ['an empty object', {}],
    ['a flat result', { wpm: 80.5, acc: 96, mode: 'time', mode2: '30', punctuation: false, uid: 'abc' }],
    ['key order does not matter', { b: 1, a: [3, 2, 1] }],
    [
      'nested lists and objects',
      { chartData: { wpm: [1, 2.5], burst: [3], err: [0] }, tags: ['x'], n: null },
    ],
    ['unicode text', { language: 'ελληνικά', note: 'emoji 🐒 and "quotes"' }],
    ['long lists', { keySpacing: Array.from({ length: 3000 }, (_, i) => i * 1.25) }],
    [
      'lists of objects',
      {
        incompleteTests: [
          { acc: 90, seconds: 4 },
          { acc: 80.5, seconds: 1.2 },
        ],
      },
    ],
    ['empty lists and objects, deep nesting', { a: [], b: {}, c: [[[{}]]], d: { e: { f: { g: [null] } } } }],
    [
      'numbers of every form',
      { a: -0, b: 1e21, c: 1e-7, d: -12.5, e: 0.1 + 0.2, f: Number.MAX_SAFE_INTEGER },
    ],
    [
      'lists of numbers of every form',
      { a: [-0, 1e21, 1e-7, -12.5, 0.1 + 0.2, Number.MAX_SAFE_INTEGER, 61.10000000000002], b: [7], c: [] },
    ],
    ['numbers JSON cannot write', { a: NaN, b: Infinity, c: [1.5, NaN], d: [-Infinity, 2], e: [Infinity] }],
    ['lists mixing numbers and other values', { a: [1, '1', 2], b: [null, 1], c: [1, [2]], d: [1, true] }],
    ['keys that sort by code unit', { b: 1, B: 2, _: 3, '10': 4, '9': 5, é: 6, '': 7 }],
    [
      'own keys named like the special ones',
      JSON.parse('{"constructor": 1, "prototype": [2], "__proto__": {"x": 3}}'),
    ],
    [
      'a value met twice (object-hash marks the second as circular)',
      (() => {
        const shared = { x: 1 };
        return { a: shared, b: shared, c: [shared] };
      })(),
    ],
    ['a date (not JSON: object-hash itself)', { at: new Date(0) }],
    ['an object without prototype', { inner: Object.assign(Object.create(null) as object, { a: 1 }) }],
    ['a list with a hole', { list: [1, , 3] }], // eslint-disable-line no-sparse-arrays
    ['a map', { m: new Map([['a', 1]]) }],
  ])('gives the object-hash digest for %s', (_label, value) => {
    expect(resultHash(value)).toBe(objectHash(value as object));
  });

  it('gives the object-hash digest for a list and a value at the root', () => {
    expect(resultHash([1, { a: 2 }])).toBe(objectHash([1, { a: 2 }]));
    expect(resultHash('text')).toBe(objectHash('text'));
  });

  it.each(Array.from({ length: 200 }, (_, i) => i + 1))(
    'gives the object-hash digest for random JSON #%i',
    (seed) => {
      const value = randomJson(seed);
      expect(resultHash(value)).toBe(objectHash(value));
    },
  );

  it('serialises plain JSON itself and leaves other values to object-hash', () => {
    const library = jest.spyOn(objectHash, 'writeToStream');
    try {
      resultHash(randomJson(7));
      expect(library).not.toHaveBeenCalled();
      resultHash({ at: new Date(0) });
      expect(library).toHaveBeenCalledTimes(1);
    } finally {
      library.mockRestore();
    }
  });

  it('is sensitive to the values', () => {
    expect(resultHash({ wpm: 80 })).not.toBe(resultHash({ wpm: 81 }));
    expect(resultHash({ a: '1' })).not.toBe(resultHash({ a: 1 }));
  });
});
