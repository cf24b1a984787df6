import objectHash from 'object-hash';
import { resultHash } from './result-hash';

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
  ])('gives the object-hash digest for %s', (_label, value) => {
    expect(resultHash(value)).toBe(objectHash(value as object));
  });

  it('is sensitive to the values', () => {
    expect(resultHash({ wpm: 80 })).not.toBe(resultHash({ wpm: 81 }));
  });
});
