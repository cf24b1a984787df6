import { canSetPersonalBest, isNewPersonalBest, type PbEligibilityInput } from './personal-best';

const base: PbEligibilityInput = {
  mode: 'time',
  acc: 95,
  bailedOut: false,
  stopOnLetter: false,
  funboxesAllowPb: true,
};

describe('canSetPersonalBest', () => {
  it.each<[string, Partial<PbEligibilityInput>, boolean]>([
    ['a plain timed test', {}, true],
    ['words, zen and custom tests', { mode: 'zen' }, true],
    ['quote mode', { mode: 'quote' }, false],
    ['an abandoned test', { bailedOut: true }, false],
    ['a funbox without PBs', { funboxesAllowPb: false }, false],
    ['stop on letter with mistakes', { stopOnLetter: true, acc: 99.9 }, false],
    ['stop on letter at 100%', { stopOnLetter: true, acc: 100 }, true],
  ])('%s → %p', (_label, over, expected) => {
    expect(canSetPersonalBest({ ...base, ...over })).toBe(expected);
  });
});

describe('isNewPersonalBest', () => {
  it.each<[number | null | undefined, number, boolean]>([
    [null, 10, true],
    [undefined, 0, true],
    [100, 100.01, true],
    [100, 100, false],
    [100, 99.99, false],
  ])('record %p, result %p → %p', (record, wpm, expected) => {
    expect(isNewPersonalBest(record, wpm)).toBe(expected);
  });
});
