import { groupPersonalBests, profilePersonalBests, type PersonalBestRow } from './personal-bests';

const row = (
  mode: string,
  mode2: string,
  wpm: number,
  extra: Partial<PersonalBestRow> = {},
): PersonalBestRow => ({
  mode,
  mode2,
  language: 'english',
  difficulty: 'normal',
  punctuation: false,
  numbers: false,
  lazy_mode: false,
  wpm,
  acc: 97,
  raw: wpm + 2,
  consistency: 80,
  timestamp: 1000,
  ...extra,
});

describe('groupPersonalBests', () => {
  it('has every mode key even without records', () => {
    expect(groupPersonalBests([])).toEqual({ time: {}, words: {}, quote: {}, zen: {}, custom: {} });
  });

  it('groups records by mode and mode2, in camelCase', () => {
    const bests = groupPersonalBests([
      row('time', '15', 100),
      row('time', '15', 90, { punctuation: true }),
      row('zen', 'zen', 50, { lazy_mode: true }),
      row('unknown', '1', 1),
    ]);
    expect(bests.time['15']).toHaveLength(2);
    expect(bests.time['15']?.[1]).toMatchObject({ wpm: 90, punctuation: true, raw: 92, lazyMode: false });
    expect(bests.zen.zen?.[0]).toMatchObject({ lazyMode: true, language: 'english', difficulty: 'normal' });
    expect(Object.keys(bests)).toEqual(['time', 'words', 'quote', 'zen', 'custom']);
  });
});

describe('profilePersonalBests', () => {
  it('keeps only time 15/30/60/120 and words 10/25/50/100', () => {
    const bests = groupPersonalBests([
      row('time', '15', 1),
      row('time', '120', 2),
      row('time', '45', 3),
      row('words', '100', 4),
      row('words', '11', 5),
      row('quote', '1', 6),
    ]);
    const profile = profilePersonalBests(bests);
    expect(Object.keys(profile)).toEqual(['time', 'words']);
    expect(Object.keys(profile.time).sort()).toEqual(['120', '15']);
    expect(Object.keys(profile.words)).toEqual(['100']);
  });
});
