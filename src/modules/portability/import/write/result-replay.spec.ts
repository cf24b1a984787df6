import { calculateXp, type XpConfig } from '../../../xp/xp-calculator';
import type { ResultRow } from '../import-records';
import { resultRow } from '../../../../../test/support/result-rows';
import { bucketOf, replayResults, type ReplayAccount } from './result-replay';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 2, 12, 0, 0);
const XP: XpConfig = {
  enabled: true,
  funboxBonus: 0,
  gainMultiplier: 1,
  maxDailyBonus: 100,
  minDailyBonus: 10,
  streak: { enabled: true, maxStreakDays: 10, maxStreakMultiplier: 1 },
};

let n = 0;
const result = (over: Partial<ResultRow> = {}): ResultRow =>
  resultRow({
    id: `r${++n}`,
    uid: 'u1',
    timestamp: T0,
    name: null,
    wpm: 80,
    raw_wpm: 82,
    acc: 96,
    consistency: 70,
    key_consistency: null,
    char_stats: [400, 4, 0, 1],
    afk_duration: 2,
    incomplete_test_seconds: 10,
    restart_count: 1,
    chart_data: null,
    xp: 123_456,
    ...over,
  });

const fresh = (over: Partial<ReplayAccount> = {}): Map<string, ReplayAccount> =>
  new Map([
    [
      'u1',
      {
        uid: 'u1',
        name: 'typist',
        xp: 0,
        lastResultAt: null,
        streak: { length: 0, maxLength: 0, lastResultTimestamp: null, hourOffset: null },
        ...over,
      },
    ],
  ]);
const nothing = { bests: [], tagsOf: new Map<string, Set<string>>() };

describe('replaying results onto their account, as submissions would have', () => {
  it('adds each result as POST /results does: counters, typing time, streak, XP by the live rules, never the row’s', () => {
    const first = result({ timestamp: T0 });
    const second = result({ timestamp: T0 + DAY, wpm: 90 });
    const replay = replayResults([second, first], fresh(), nothing, XP);
    const firstXp = calculateXp(
      {
        ...{ mode: 'time', acc: 96, testDuration: 60, afkDuration: 2, punctuation: false, numbers: false },
        ...{
          correctedEverything: false,
          funboxDifficulties: [],
          incompleteTests: [],
          incompleteTestSeconds: 0,
        },
        ...{ streak: 1, lastResultTimestamp: null, currentTotalXp: 0, now: T0 },
      },
      XP,
    ).xp;
    expect(replay.rows.map((r) => [r.id, r.xp, r.is_pb, r.name])).toEqual([
      [first.id, firstXp, true, 'typist'],
      // The next day: a longer streak and the daily bonus.
      [second.id, expect.any(Number), true, 'typist'],
    ]);
    expect(replay.rows[1]!.xp).toBeGreaterThan(firstXp);
    expect(replay.accounts).toEqual([
      {
        uid: 'u1',
        completedTests: 2,
        startedTests: 4,
        timeTyped: 2 * (60 + 10 - 2),
        xp: replay.rows[0]!.xp + replay.rows[1]!.xp,
        streak: { length: 2, maxLength: 2, lastResultTimestamp: T0 + DAY, hourOffset: null },
        lastResultAt: T0 + DAY,
      },
    ]);
    expect(replay.activity).toEqual([
      { uid: 'u1', day: Math.floor(T0 / DAY), tests: 1 },
      { uid: 'u1', day: Math.floor(T0 / DAY) + 1, tests: 1 },
    ]);
    expect(replay.bests).toEqual([
      expect.objectContaining({ owner: 'u1', heldResultId: null, row: expect.objectContaining({ wpm: 90 }) }),
    ]);
  });

  it('holds the best of a held result off the boards, and writes its review with what the boards need', () => {
    const held = result({ wpm: 300, held: { reasons: [{ check: 'imported', figures: {} }], heldAt: 5 } });
    const replay = replayResults([held], fresh(), nothing, XP);
    expect(replay.bests).toEqual([expect.objectContaining({ heldResultId: held.id })]);
    expect(replay.rows[0]).not.toHaveProperty('held');
    expect(replay.reviews).toEqual([
      {
        resultId: held.id,
        uid: 'u1',
        hold: held.held,
        result: expect.objectContaining({ wpm: 300, pbAllowed: true, xp: replay.rows[0]!.xp }) as unknown,
      },
    ]);
  });

  it('sets a best only where it beats what is stored, and a tag best only for a tag the account owns', () => {
    const row = result({ wpm: 85, tags: ['mine', 'theirs'] });
    const replay = replayResults(
      [row],
      fresh(),
      {
        bests: [
          { owner: 'u1', bucket: bucketOf(row), wpm: 88 },
          { owner: 'mine', bucket: bucketOf(row), wpm: 70 },
        ],
        tagsOf: new Map([['u1', new Set(['mine'])]]),
      },
      XP,
    );
    expect(replay.rows[0]).toMatchObject({ is_pb: false, tags: ['mine'] });
    expect(replay.bests.map((b) => b.owner)).toEqual(['mine']);
  });

  it.each([
    ['a funbox that allows no best', { funbox: ['rAnDoMcAsE'] }],
    ['an abandoned test', { bailed_out: true }],
    ['a quote', { mode: 'quote', mode2: '42' }],
    ['stop on letter with a mistake', { stop_on_letter: true }],
  ])('sets no best for %s', (_name, over) => {
    const replay = replayResults([result(over as Partial<ResultRow>)], fresh(), nothing, XP);
    expect({ bests: replay.bests, isPb: replay.rows[0]!.is_pb }).toEqual({ bests: [], isPb: false });
  });

  it('moves neither the streak nor a daily bonus for a result older than the account’s last one', () => {
    const last = T0 + 5 * DAY;
    const account = fresh({
      xp: 1000,
      lastResultAt: last,
      streak: { length: 4, maxLength: 6, lastResultTimestamp: last, hourOffset: null },
    });
    const replay = replayResults([result({ timestamp: T0 })], account, nothing, XP);
    expect(replay.accounts[0]).toMatchObject({
      streak: { length: 4, maxLength: 6, lastResultTimestamp: last },
      lastResultAt: last,
    });
    const noBonus = calculateXp(
      {
        ...{ mode: 'time', acc: 96, testDuration: 60, afkDuration: 2, punctuation: false, numbers: false },
        ...{
          correctedEverything: false,
          funboxDifficulties: [],
          incompleteTests: [],
          incompleteTestSeconds: 0,
        },
        ...{ streak: 4, lastResultTimestamp: last, currentTotalXp: 1000, now: T0 },
      },
      XP,
    );
    expect(noBonus.dailyBonus).toBe(false);
    expect(replay.rows[0]!.xp).toBe(noBonus.xp);
  });

  it('leaves out results of accounts it was not given (the writer reports them)', () => {
    expect(replayResults([result({ uid: 'ghost' })], fresh(), nothing, XP).rows).toEqual([]);
  });
});
