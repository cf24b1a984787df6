import { calculateXp, mapRangeClamped, streakMultiplier, type XpConfig, type XpInput } from './xp-calculator';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const HOUR = 3_600_000;

const config = (over: Partial<XpConfig> = {}): XpConfig => ({
  enabled: true,
  funboxBonus: 0,
  gainMultiplier: 1,
  maxDailyBonus: 0,
  minDailyBonus: 0,
  streak: { enabled: false, maxStreakDays: 0, maxStreakMultiplier: 0 },
  ...over,
});

// time 30 at 100% accuracy: base 60, full accuracy +0.5 → 90.
const input = (over: Partial<XpInput> = {}): XpInput => ({
  mode: 'time',
  acc: 100,
  testDuration: 30,
  afkDuration: 0,
  punctuation: false,
  numbers: false,
  correctedEverything: false,
  funboxDifficulties: [],
  incompleteTests: [],
  incompleteTestSeconds: 0,
  streak: 0,
  lastResultTimestamp: null,
  currentTotalXp: 0,
  now: NOW,
  ...over,
});

const streakOn = (maxStreakDays: number, maxStreakMultiplier: number) => ({
  streak: { enabled: true, maxStreakDays, maxStreakMultiplier },
});

describe('calculateXp', () => {
  it.each<[string, Partial<XpInput>, Partial<XpConfig>, number, Record<string, number>, boolean?]>([
    // No XP at all
    ['XP disabled in the configuration', {}, { enabled: false }, 0, {}],
    ['zen mode', { mode: 'zen' }, {}, 0, {}],
    ['accuracy below 50', { acc: 49.99 }, {}, 0, {}],
    // Rule 1: base
    ['base only (acc 75: factor 0.5)', { acc: 75 }, {}, 30, { base: 60, accPenalty: 30 }],
    [
      'base minus afk, rounded',
      { testDuration: 30.3, afkDuration: 5.1 },
      {},
      75,
      { base: 50, fullAccuracy: 25, accPenalty: 0 },
    ],
    ['base rounds half up', { testDuration: 15.25 }, {}, 47, { base: 31, fullAccuracy: 16, accPenalty: 0 }],
    // Rule 2: accuracy bonuses
    ['full accuracy +0.5', {}, {}, 90, { base: 60, fullAccuracy: 30, accPenalty: 0 }],
    [
      'corrected everything +0.25',
      { acc: 90, correctedEverything: true },
      {},
      60,
      { base: 60, corrected: 15, accPenalty: 15 },
    ],
    [
      'full accuracy wins over corrected',
      { correctedEverything: true },
      {},
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0 },
    ],
    ['neither (acc 90, mistakes left)', { acc: 90 }, {}, 48, { base: 60, accPenalty: 12 }],
    // Rule 2: mode bonuses
    [
      'quote +0.5, punctuation and numbers ignored',
      { mode: 'quote', punctuation: true, numbers: true },
      {},
      120,
      { base: 60, fullAccuracy: 30, quote: 30, accPenalty: 0 },
    ],
    [
      'punctuation +0.4 and numbers +0.1',
      { punctuation: true, numbers: true },
      {},
      120,
      { base: 60, fullAccuracy: 30, punctuation: 24, numbers: 6, accPenalty: 0 },
    ],
    ['numbers alone', { numbers: true }, {}, 96, { base: 60, fullAccuracy: 30, numbers: 6, accPenalty: 0 }],
    // Rule 2: funbox
    [
      'funbox: sum of difficulty x bonus',
      { funboxDifficulties: [3, 1] },
      { funboxBonus: 0.5 },
      210,
      { base: 60, fullAccuracy: 30, funbox: 120, accPenalty: 0 },
    ],
    [
      'funbox bonus 0 in the configuration',
      { funboxDifficulties: [3] },
      {},
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0 },
    ],
    [
      'funboxes of difficulty 0 add nothing',
      { funboxDifficulties: [0, 0] },
      { funboxBonus: 1 },
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0 },
    ],
    // Rule 2: streak
    [
      'streak mapped and rounded to one decimal (5/10 days of 0.5 → 0.3)',
      { streak: 5 },
      streakOn(10, 0.5),
      108,
      { base: 60, fullAccuracy: 30, streak: 18, accPenalty: 0 },
    ],
    [
      'streak beyond maxStreakDays is clamped',
      { streak: 400 },
      streakOn(10, 0.5),
      120,
      { base: 60, fullAccuracy: 30, streak: 30, accPenalty: 0 },
    ],
    [
      'streak rounding to 0.0 adds no entry',
      { streak: 1 },
      streakOn(100, 0.5),
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0 },
    ],
    [
      'streak with maxStreakDays 0',
      { streak: 10 },
      streakOn(0, 0.5),
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0 },
    ],
    [
      'streak setting disabled',
      { streak: 10 },
      { streak: { enabled: false, maxStreakDays: 10, maxStreakMultiplier: 0.5 } },
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0 },
    ],
    // Rule 3: incomplete tests
    [
      'incomplete tests: seconds x max((acc-50)/50, 0), each rounded',
      {
        incompleteTests: [
          { acc: 75, seconds: 10 },
          { acc: 40, seconds: 20 },
          { acc: 100, seconds: 7 },
        ],
      },
      {},
      102,
      { base: 60, fullAccuracy: 30, incomplete: 12, accPenalty: 0 },
    ],
    [
      'incomplete tests worth nothing still list the entry',
      { incompleteTests: [{ acc: 50, seconds: 10 }], incompleteTestSeconds: 10 },
      {},
      90,
      { base: 60, fullAccuracy: 30, incomplete: 0, accPenalty: 0 },
    ],
    [
      'only incomplete seconds reported: counted in full',
      { incompleteTestSeconds: 12.6 },
      {},
      103,
      { base: 60, fullAccuracy: 30, incomplete: 13, accPenalty: 0 },
    ],
    // Rule 4: accuracy penalty
    [
      'accuracy factor applies to the modified XP',
      { acc: 80, punctuation: true },
      {},
      50,
      { base: 60, punctuation: 24, accPenalty: 34 },
    ],
    // Rule 5: daily bonus
    [
      'daily bonus: 5% of the total',
      { lastResultTimestamp: NOW - 24 * HOUR, currentTotalXp: 1000 },
      { maxDailyBonus: 100, minDailyBonus: 10 },
      140,
      { base: 60, fullAccuracy: 30, accPenalty: 0, daily: 50 },
      true,
    ],
    [
      'daily bonus clamped to the maximum',
      { lastResultTimestamp: NOW - 24 * HOUR, currentTotalXp: 10_000 },
      { maxDailyBonus: 100, minDailyBonus: 10 },
      190,
      { base: 60, fullAccuracy: 30, accPenalty: 0, daily: 100 },
      true,
    ],
    [
      'daily bonus raised to the minimum',
      { lastResultTimestamp: NOW - 24 * HOUR, currentTotalXp: 10 },
      { maxDailyBonus: 100, minDailyBonus: 10 },
      100,
      { base: 60, fullAccuracy: 30, accPenalty: 0, daily: 10 },
      true,
    ],
    [
      'daily bonus across UTC midnight by two seconds',
      {
        lastResultTimestamp: Date.UTC(2026, 10, 21, 23, 59, 59),
        now: Date.UTC(2026, 10, 22, 0, 0, 1),
        currentTotalXp: 1000,
      },
      { maxDailyBonus: 100 },
      140,
      { base: 60, fullAccuracy: 30, accPenalty: 0, daily: 50 },
      true,
    ],
    [
      'no daily bonus for a second result the same UTC day',
      { lastResultTimestamp: Date.UTC(2026, 10, 22, 0, 0, 0), currentTotalXp: 1000 },
      { maxDailyBonus: 100 },
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0 },
    ],
    [
      'no daily bonus without a previous result',
      { lastResultTimestamp: null, currentTotalXp: 1000 },
      { maxDailyBonus: 100 },
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0 },
    ],
    [
      'a daily bonus of 0 is listed but not flagged',
      { lastResultTimestamp: NOW - 24 * HOUR, currentTotalXp: 1000 },
      {},
      90,
      { base: 60, fullAccuracy: 30, accPenalty: 0, daily: 0 },
      false,
    ],
    // Rule 6: multiplier (daily bonus not multiplied)
    [
      'gain multiplier 2, daily bonus added after',
      { lastResultTimestamp: NOW - 24 * HOUR, currentTotalXp: 1000, incompleteTestSeconds: 10 },
      { gainMultiplier: 2, maxDailyBonus: 100 },
      250,
      { base: 60, fullAccuracy: 30, incomplete: 10, accPenalty: 0, daily: 50, configMultiplier: 2 },
      true,
    ],
    [
      'gain multiplier 0 (the default) earns only the daily bonus',
      { lastResultTimestamp: NOW - 24 * HOUR, currentTotalXp: 1000 },
      { gainMultiplier: 0, maxDailyBonus: 100 },
      50,
      { base: 60, fullAccuracy: 30, accPenalty: 0, daily: 50, configMultiplier: 0 },
      true,
    ],
    [
      "the original platform's worked example",
      {
        testDuration: 15.1,
        afkDuration: 5,
        acc: 86,
        funboxDifficulties: [1, 3],
        incompleteTests: [{ acc: 75, seconds: 10 }],
      },
      { funboxBonus: 1, gainMultiplier: 0 },
      0,
      { base: 20, funbox: 80, incomplete: 5, accPenalty: 28, configMultiplier: 0 },
    ],
  ])('%s', (_label, over, configOver, xp, breakdown, dailyBonus = false) => {
    const outcome = calculateXp(input(over), config(configOver));
    expect(outcome).toEqual({ xp, breakdown, dailyBonus });
  });

  it('never lists a key outside the spec list', () => {
    const allowed = new Set([
      'base',
      'fullAccuracy',
      'corrected',
      'quote',
      'punctuation',
      'numbers',
      'funbox',
      'streak',
      'incomplete',
      'accPenalty',
      'daily',
      'configMultiplier',
    ]);
    const outcome = calculateXp(
      input({
        punctuation: true,
        numbers: true,
        funboxDifficulties: [2],
        streak: 3,
        incompleteTestSeconds: 3,
        lastResultTimestamp: NOW - 48 * HOUR,
        currentTotalXp: 500,
      }),
      config({ funboxBonus: 1, gainMultiplier: 1.5, maxDailyBonus: 1000, ...streakOn(10, 1) }),
    );
    expect(Object.keys(outcome.breakdown).length).toBe(10);
    for (const key of Object.keys(outcome.breakdown)) expect(allowed.has(key)).toBe(true);
  });
});

describe('streakMultiplier and mapRangeClamped', () => {
  it.each([
    [0, 10, 1, 0],
    [5, 10, 1, 0.5],
    [3, 10, 0.5, 0.1], // 0.15 in binary is just below 0.15
    [10, 10, 1, 1],
    [11, 10, 1, 1],
    [7, 0, 1, 0],
  ])('streak %d of %d days, max %d → %d', (streak, days, max, expected) => {
    expect(streakMultiplier(streak, { enabled: true, maxStreakDays: days, maxStreakMultiplier: max })).toBe(
      expected,
    );
  });

  it('clamps to the output range in either direction', () => {
    expect(mapRangeClamped(-5, 0, 10, 0, 1)).toBe(0);
    expect(mapRangeClamped(15, 0, 10, 1, 0)).toBe(0);
    expect(mapRangeClamped(2.5, 0, 10, 1, 0)).toBe(0.75);
  });
});
