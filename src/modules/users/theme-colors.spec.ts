import { normalizeThemeColors, themeColorsProblem } from './theme-colors';

const NAMED = {
  bg: '#111',
  main: '#222222',
  caret: '#333',
  sub: '#444',
  text: '#555',
  error: '#666',
  errorExtra: '#777',
  colorfulError: '#888',
  colorfulErrorExtra: '#999',
};
const TUPLE = ['#111', '#222222', '#333', '#444', '#4a4a4a', '#555', '#666', '#777', '#888', '#ABCDEF'];

describe('themeColorsProblem', () => {
  it.each([
    ['the nine named colours', NAMED],
    ['the original client tuple of 10', TUPLE],
  ])('accepts %s', (_label, value) => {
    expect(themeColorsProblem(value)).toBeNull();
  });

  it.each([
    ['9 items', TUPLE.slice(0, 9), 'must be an array of exactly 10 hex colours (got 9)'],
    ['11 items', [...TUPLE, '#000'], 'must be an array of exactly 10 hex colours (got 11)'],
    [
      'a named colour in the tuple',
      [...TUPLE.slice(0, 9), 'red'],
      'item 9 must be a hex colour (#rgb or #rrggbb)',
    ],
    ['a number in the tuple', [1, ...TUPLE.slice(1)], 'item 0 must be a hex colour (#rgb or #rrggbb)'],
    ['5 hex digits', { ...NAMED, bg: '#12345' }, 'bg must be a hex colour (#rgb or #rrggbb)'],
    [
      'a missing key',
      { ...NAMED, colorfulErrorExtra: undefined },
      'colorfulErrorExtra must be a hex colour (#rgb or #rrggbb)',
    ],
    ['subAlt in the object', { ...NAMED, subAlt: '#fff' }, "Unrecognized key(s) in object: 'subAlt'"],
    ['a string', '#fff', 'must be an object of the nine named hex colours or an array of 10 hex colours'],
    ['null', null, 'must be an object of the nine named hex colours or an array of 10 hex colours'],
  ])('refuses %s', (_label, value, problem) => {
    expect(themeColorsProblem(value)).toBe(problem);
  });
});

describe('normalizeThemeColors', () => {
  it('keeps the shape it was given', () => {
    expect(normalizeThemeColors(TUPLE)).toEqual(TUPLE);
    expect(Object.keys(normalizeThemeColors({ ...NAMED }))).toEqual(Object.keys(NAMED));
  });
});
