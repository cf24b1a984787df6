import { tagPersonalBests } from './results-tags.service';
import type { TaggedResult } from './result-tags.repository';

const result = (overrides: Partial<TaggedResult> = {}): TaggedResult => ({
  mode: 'time',
  mode2: '15',
  language: 'english',
  difficulty: 'normal',
  punctuation: false,
  numbers: false,
  lazyMode: false,
  funbox: [],
  bailedOut: false,
  wpm: 100,
  acc: 95,
  raw: 102,
  consistency: 80,
  ...overrides,
});

describe('tagPersonalBests', () => {
  const tags = [
    { id: 'none', wpm: null },
    { id: 'slower', wpm: 99.99 },
    { id: 'tie', wpm: 100 },
    { id: 'faster', wpm: 120 },
  ];

  it('names tags without a best in the bucket and tags whose best is slower (a tie is not a best)', () => {
    expect(tagPersonalBests(result(), tags)).toEqual(['none', 'slower']);
  });

  it.each([
    ['a quote', { mode: 'quote', mode2: '12' }],
    ['an abandoned test', { bailedOut: true }],
    ['a funbox that changes the words', { funbox: ['arrows'] }],
  ])('names none for %s', (_label, overrides) => {
    expect(tagPersonalBests(result(overrides), tags)).toEqual([]);
  });
});
