import { areFunboxesCompatible, funboxDifficulties, funboxesAllowPb } from './funbox-rules';
import { FUNBOX_NAMES, isFunboxName } from './funboxes';

describe('funbox list', () => {
  it('holds the 48 funboxes of the original client', () => {
    expect(FUNBOX_NAMES).toHaveLength(48);
    expect(isFunboxName('58008')).toBe(true);
    expect(isFunboxName('no_quit')).toBe(true);
    expect(isFunboxName('toString')).toBe(false);
    expect(isFunboxName('nope')).toBe(false);
    expect(isFunboxName(3)).toBe(false);
  });
});

describe('areFunboxesCompatible', () => {
  it.each<[string, string[], boolean]>([
    ['no funbox', [], true],
    ['one funbox', ['mirror'], true],
    ['visual and word funboxes together', ['mirror', 'gibberish'], true],
    ['capitalisation with words', ['capitals', 'read_ahead'], true],
    ['two word sources', ['58008', 'gibberish'], false],
    ['word source and section puller', ['poetry', 'gibberish'], false],
    ['two visibility changes', ['read_ahead', 'memory'], false],
    ['two look-ahead changes', ['plus_one', 'nospace'], false],
    ['two capitalisation changes', ['capitals', 'ALL_CAPS'], false],
    ['layout change with a layout-ignoring funbox', ['layoutfluid', 'binary'], false],
    ['layout change with a layout-using funbox', ['layout_mirror', 'simon_says'], false],
    ['frequency change with language-free words', ['zipf', 'pseudolang'], false],
    ['two frequency changes', ['zipf', 'weakspot'], false],
    ['capitalisation without letters', ['rAnDoMcAsE', 'morse'], false],
    ['symmetric characters with a mirroring funbox', ['arrows', 'backwards'], false],
    ['voice with unspeakable words', ['tts', 'gibberish'], false],
    ['two styles on the same element', ['mirror', 'upside_down'], false],
    ['unknown name', ['mirror', 'teleport'], false],
  ])('%s: %p → %p', (_label, names, expected) => {
    expect(areFunboxesCompatible(names)).toBe(expected);
  });
});

describe('funboxesAllowPb and funboxDifficulties', () => {
  it('allows a PB only when every funbox allows one', () => {
    expect(funboxesAllowPb([])).toBe(true);
    expect(funboxesAllowPb(['mirror', 'read_ahead'])).toBe(true);
    expect(funboxesAllowPb(['mirror', '58008'])).toBe(false);
    expect(funboxesAllowPb(['unknown'])).toBe(false);
  });

  it('maps names to difficulty levels', () => {
    expect(funboxDifficulties(['58008', 'read_ahead_hard', 'space_balls'])).toEqual([1, 3, 0]);
  });
});
