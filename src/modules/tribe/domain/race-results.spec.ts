import type { RaceResult } from './room';
import { places, rankRace, type Racer } from './race-results';

function result(wpm: number, acc = 95, extra: Partial<RaceResult> = {}): RaceResult {
  return {
    wpm,
    raw: wpm + 10,
    acc,
    consistency: 75,
    testDuration: 30,
    charStats: [100, 0, 0, 0],
    chartData: { wpm: [], burst: [], err: [] },
    resolve: { login: true, bailedOut: false, saved: true, isPb: false },
    ...extra,
  };
}
const racer = (id: string, r: RaceResult | null, points = 0): Racer => ({ id, points, result: r });
const invalid = (wpm: number) =>
  result(wpm, 95, { resolve: { login: false, bailedOut: false, valid: false, invalidReason: 'afk' } });
const failed = (wpm: number) =>
  result(wpm, 95, { resolve: { login: false, bailedOut: false, failed: true, failedReason: 'out of time' } });

describe('rankRace', () => {
  it.each<[string, Racer[], Record<string, [string, number][]>]>([
    ['one racer', [racer('a', result(80))], { '1': [['a', 0]] }],
    ['faster first', [racer('a', result(80)), racer('b', result(90))], { '1': [['b', 1]], '2': [['a', 0]] }],
    [
      'accuracy breaks a tie',
      [racer('a', result(90, 97)), racer('b', result(90, 99))],
      { '1': [['b', 1]], '2': [['a', 0]] },
    ],
    [
      'equal figures share a place, the next one skips',
      [racer('a', result(90)), racer('b', result(90)), racer('c', result(70))],
      {
        '1': [
          ['a', 1],
          ['b', 1],
        ],
        '3': [['c', 0]],
      },
    ],
    [
      'a racer without a placing result is beaten by every placed one',
      [racer('a', result(60)), racer('b', null), racer('c', invalid(200)), racer('d', failed(150))],
      { '1': [['a', 3]] },
    ],
    ['nobody placed', [racer('a', null), racer('b', failed(10))], {}],
  ])('%s', (_, racers, expected) => {
    const { positions, newPoints } = rankRace(racers);
    const got = Object.fromEntries(
      Object.entries(positions).map(([place, list]) => [
        place,
        list.map((p) => [p.id, p.newPoints] as [string, number]),
      ]),
    );
    expect(got).toEqual(expected);
    for (const r of racers) expect(newPoints.has(r.id)).toBe(true);
  });

  it('adds the new points to the points a racer had', () => {
    const { positions } = rankRace([racer('a', result(90), 5), racer('b', result(80), 2)]);
    expect(positions['1']).toEqual([{ id: 'a', newPoints: 1, newPointsTotal: 6 }]);
    expect(positions['2']).toEqual([{ id: 'b', newPoints: 0, newPointsTotal: 2 }]);
  });

  it('crowns the best of each figure among the placed racers, sharing ties', () => {
    const { miniCrowns } = rankRace([
      racer('a', result(90, 96, { raw: 120, consistency: 70 })),
      racer('b', result(80, 99, { raw: 120, consistency: 85 })),
      racer('c', invalid(300)),
    ]);
    expect(miniCrowns).toEqual({ wpm: ['a'], raw: ['a', 'b'], acc: ['b'], consistency: ['b'] });
  });

  it.each<[string, RaceResult | null, boolean]>([
    ['a saved result', result(80), true],
    [
      'a result whose save failed',
      result(80, 95, { resolve: { login: true, bailedOut: false, saved: false, saveFailedMessage: 'x' } }),
      true,
    ],
    ['an invalid test', invalid(80), false],
    ['a failed test', failed(80), false],
    ['no result', null, false],
  ])('%s places: %s', (_, r, expected) => {
    expect(places(r)).toBe(expected);
  });
});
