import { isLanguage, LANGUAGES } from './languages';

describe('language list', () => {
  it('holds the 446 languages of the original platform, without duplicates', () => {
    expect(LANGUAGES).toHaveLength(446);
    expect(new Set(LANGUAGES).size).toBe(446);
  });

  it.each([
    ['english', true],
    ['english_1k', true],
    ['spanish', true],
    ['English', false],
    ['elvish_quenya', false],
    ['', false],
    [42, false],
    [undefined, false],
  ])('isLanguage(%p) is %p', (value, expected) => {
    expect(isLanguage(value)).toBe(expected);
  });
});
