import { copyLine, copyValue } from './copy-text';

describe('COPY text encoding', () => {
  it.each([
    [null, '\\N'],
    [true, 't'],
    [false, 'f'],
    [12.5, '12.5'],
    ['plain', 'plain'],
    ['tab\there', 'tab\\there'],
    ['new\nline\r', 'new\\nline\\r'],
    ['back\\slash', 'back\\\\slash'],
    [[], '{}'],
    [['a', 'b c'], '{"a","b c"}'],
    [['q"uote', 'b\\s'], '{"q\\\\"uote","b\\\\\\\\s"}'],
    [[1, 2, 3], '{1,2,3}'],
    [{ json: { a: 'x\ty' } }, '{"a":"x\\\\ty"}'],
    [{ json: 'toolong' }, '"toolong"'],
    [{ json: null }, '\\N'],
  ] as const)('%j → %s', (value, expected) => {
    expect(copyValue(value)).toBe(expected);
  });

  it('joins a row with tabs and ends it with a newline; refuses non-finite numbers', () => {
    expect(copyLine(['a', 1, null])).toBe('a\t1\t\\N\n');
    expect(() => copyValue(Number.NaN)).toThrow('not a finite number');
  });
});
