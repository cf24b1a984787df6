import {
  bracketReward,
  crossesMinTimeTyping,
  dailyScore,
  deepestRewardedRank,
  formatDuration,
  isEligible,
  isLeaderboardMode,
  isLeaderboardMode2,
  isoDate,
  isoWeekStart,
  LEADERBOARD_MODE_PAIRS,
  matchesModeRules,
  ordinal,
  previousWeekStart,
  utcDayStart,
  wpmOfDailyScore,
} from './leaderboard-rules';

describe('leaderboard rules', () => {
  describe('modes', () => {
    it.each([
      ['time', '15', true],
      ['time', '60', true],
      ['time', '30', false],
      ['words', '10', true],
      ['words', '25', true],
      ['words', '50', true],
      ['words', '100', true],
      ['words', '15', false],
    ])('%s %s exists: %s', (mode, mode2, exists) => {
      expect(isLeaderboardMode(mode) && isLeaderboardMode2(mode, mode2)).toBe(exists);
    });

    it('knows only time and words (not inherited object keys)', () => {
      for (const mode of ['quote', 'zen', 'custom', 'toString', '__proto__', 15])
        expect(isLeaderboardMode(mode)).toBe(false);
    });

    it('lists the six boards per language', () => {
      expect(LEADERBOARD_MODE_PAIRS.map((p) => `${p.mode}:${p.mode2}`)).toEqual([
        'time:15',
        'time:60',
        'words:10',
        'words:25',
        'words:50',
        'words:100',
      ]);
    });
  });

  describe('mode rules (regular expressions matched against the whole value)', () => {
    const rules = [
      { language: 'english', mode: 'time', mode2: '(15|60)' },
      { language: 'span.*', mode: 'words', mode2: '\\d+' },
    ];
    it.each([
      [{ language: 'english', mode: 'time', mode2: '15' }, true],
      [{ language: 'english', mode: 'time', mode2: '60' }, true],
      [{ language: 'english', mode: 'time', mode2: '600' }, false],
      [{ language: 'english_1k', mode: 'time', mode2: '15' }, false],
      [{ language: 'spanish', mode: 'words', mode2: '25' }, true],
      [{ language: 'spanish', mode: 'time', mode2: '15' }, false],
    ])('%o → %s', (board, expected) => {
      expect(matchesModeRules(rules, board)).toBe(expected);
    });

    it('treats a malformed pattern as matching nothing', () => {
      expect(
        matchesModeRules([{ language: '(', mode: 'time', mode2: '15' }], {
          language: '(',
          mode: 'time',
          mode2: '15',
        }),
      ).toBe(false);
    });

    it('matches nothing without rules', () => {
      expect(matchesModeRules([], { language: 'english', mode: 'time', mode2: '15' })).toBe(false);
    });
  });

  describe('days and weeks (UTC)', () => {
    it('starts days at UTC midnight', () => {
      expect(utcDayStart(Date.UTC(2026, 10, 22, 23, 59, 59, 999))).toBe(Date.UTC(2026, 10, 22));
      expect(utcDayStart(Date.UTC(2026, 10, 23))).toBe(Date.UTC(2026, 10, 23));
      expect(isoDate(Date.UTC(2026, 10, 22))).toBe('2026-11-22');
    });

    it.each([
      // 2026-11-23 is a Monday.
      [Date.UTC(2026, 10, 23, 0, 0, 0), Date.UTC(2026, 10, 23)],
      [Date.UTC(2026, 10, 22, 23, 59, 59), Date.UTC(2026, 10, 16)],
      [Date.UTC(2026, 10, 29, 23, 59, 59), Date.UTC(2026, 10, 23)],
      [Date.UTC(2026, 10, 26, 12), Date.UTC(2026, 10, 23)],
      [Date.UTC(1970, 0, 1), Date.UTC(1969, 11, 29)],
    ])('week of %i starts on Monday %i', (ts, monday) => {
      expect(isoWeekStart(ts)).toBe(monday);
      expect(new Date(isoWeekStart(ts)).getUTCDay()).toBe(1);
    });

    it('knows the previous week', () => {
      expect(previousWeekStart(Date.UTC(2026, 10, 23, 0, 1))).toBe(Date.UTC(2026, 10, 16));
    });
  });

  describe('daily score', () => {
    it('packs wpm, accuracy and the seconds left in the day (original platform example)', () => {
      expect(dailyScore(214.8, 93.04, 1653586489000)).toBe(1214800930423111);
      expect(dailyScore(154.39, 96.14, 1740333827000)).toBe(1154390961421373);
      expect(wpmOfDailyScore(1214800930423111)).toBe(214.8);
    });

    it('orders by wpm, then accuracy, then the earlier submission', () => {
      const noon = Date.UTC(2026, 10, 22, 12);
      expect(dailyScore(100, 90, noon)).toBeGreaterThan(dailyScore(99.99, 100, noon));
      expect(dailyScore(100, 90.01, noon + 3600_000)).toBeGreaterThan(dailyScore(100, 90, noon));
      expect(dailyScore(100, 90, noon)).toBeGreaterThan(dailyScore(100, 90, noon + 1000));
      expect(dailyScore(420, 100, Date.UTC(2026, 10, 22))).toBeLessThan(Number.MAX_SAFE_INTEGER);
    });
  });

  describe('reward brackets', () => {
    const brackets = [{ minRank: 2, maxRank: 10, minReward: 50, maxReward: 90 }];
    it('maps linearly from maxReward at minRank to minReward at maxRank', () => {
      expect(bracketReward(2, brackets)).toBe(90);
      expect(bracketReward(5, brackets)).toBe(75);
      expect(bracketReward(10, brackets)).toBe(50);
    });

    it('pays nothing outside every bracket', () => {
      expect(bracketReward(1, brackets)).toBeNull();
      expect(bracketReward(11, brackets)).toBeNull();
      expect(bracketReward(1, [])).toBeNull();
    });

    it('takes the larger reward of overlapping brackets; a one-rank bracket pays its maxReward', () => {
      const overlapping = [...brackets, { minRank: 1, maxRank: 1, minReward: 10, maxReward: 1000 }];
      expect(bracketReward(1, overlapping)).toBe(1000);
      expect(bracketReward(5, [...brackets, { minRank: 5, maxRank: 6, minReward: 1, maxReward: 80 }])).toBe(
        80,
      );
    });

    it('knows the deepest paid rank', () => {
      expect(deepestRewardedRank([])).toBe(0);
      expect(deepestRewardedRank([...brackets, { minRank: 1, maxRank: 3, minReward: 1, maxReward: 2 }])).toBe(
        10,
      );
    });
  });

  it.each([
    [1, '1st'],
    [2, '2nd'],
    [3, '3rd'],
    [4, '4th'],
    [11, '11th'],
    [12, '12th'],
    [13, '13th'],
    [21, '21st'],
    [22, '22nd'],
    [101, '101st'],
    [111, '111th'],
  ])('ordinal %i → %s', (n, text) => {
    expect(ordinal(n)).toBe(text);
  });

  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [90, '1.5 minutes'],
    [3600, '1 hour'],
    [5400, '1.5 hours'],
    [86_400 * 2, '2 days'],
    [86_400 * 14, '2 weeks'],
    [86_400 * 61, '2.01 months'],
    [86_400 * 800, '2.19 years'],
  ])('duration %i s → %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });
});

describe('eligibility (each condition alone)', () => {
  const eligible = { banned: false, lbOptOut: false, timeTyping: 7201 };
  it.each([
    ['eligible', eligible, 7200, true],
    ['banned', { ...eligible, banned: true }, 7200, false],
    ['opted out', { ...eligible, lbOptOut: true }, 7200, false],
    ['typed exactly the minimum', { ...eligible, timeTyping: 7200 }, 7200, false],
    ['typed less, development (no time check)', { ...eligible, timeTyping: 0 }, null, true],
    ['banned, development', { ...eligible, timeTyping: 0, banned: true }, null, false],
    ['opted out, development', { ...eligible, timeTyping: 0, lbOptOut: true }, null, false],
  ])('%s', (_name, user, min, expected) => {
    expect(isEligible(user, min)).toBe(expected);
  });
});

describe('crossing minTimeTyping with one result', () => {
  it.each([
    ['from below to above', 7000, 7215, 7200, true],
    ['from exactly the minimum to above', 7200, 7200.5, 7200, true],
    ['up to exactly the minimum (not above it yet)', 7185, 7200, 7200, false],
    ['already above before', 7201, 7300, 7200, false],
    ['still below', 100, 115, 7200, false],
    ['development (no time check: eligible all along)', 0, 8000, null, false],
  ])('%s', (_name, before, after, min, expected) => {
    expect(crossesMinTimeTyping(before, after, min)).toBe(expected);
  });
});
