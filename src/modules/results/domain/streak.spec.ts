import { isToday, isYesterday, nextStreak, startOfDay, type StreakState } from './streak';

const at = (iso: string) => Date.parse(`${iso}Z`);

/** Feeds results one after another, as the user row would carry the streak between them. */
function run(hourOffset: number | null, times: string[]): number[] {
  let state: StreakState = { length: 0, maxLength: 0, lastResultTimestamp: null, hourOffset };
  return times.map((time) => {
    const next = nextStreak(state, at(time));
    state = { ...state, ...next };
    return next.length;
  });
}

describe('streak day arithmetic', () => {
  it.each([
    // [label, offset, timestamp, expected day start]
    ['UTC midnight', 0, '2024-06-07T23:59:59', '2024-06-07T00:00:00'],
    ['+10 before 10:00 belongs to the previous day', 10, '2024-06-07T09:59:59', '2024-06-06T10:00:00'],
    ['+10 at 10:00 starts a day', 10, '2024-06-07T10:00:00', '2024-06-07T10:00:00'],
    ['-4 from 20:00 belongs to the next day', -4, '2024-06-06T20:00:00', '2024-06-06T20:00:00'],
    ['-4 before 20:00', -4, '2024-06-06T19:59:59', '2024-06-05T20:00:00'],
    ['half hours', 5.5, '2024-06-07T05:29:00', '2024-06-06T05:30:00'],
    ['+12', 12, '2024-06-07T11:00:00', '2024-06-06T12:00:00'],
    ['-11', -11, '2024-06-07T13:00:00', '2024-06-07T13:00:00'],
  ])('%s', (_label, offset, ts, dayStart) => {
    expect(startOfDay(at(ts), offset)).toBe(at(dayStart));
  });

  it('tells today and yesterday apart around a shifted midnight', () => {
    const now = at('2024-06-08T10:30:00');
    expect(isToday(at('2024-06-08T10:00:00'), now, 10)).toBe(true);
    expect(isToday(at('2024-06-08T09:59:59'), now, 10)).toBe(false);
    expect(isYesterday(at('2024-06-08T09:59:59'), now, 10)).toBe(true);
    expect(isYesterday(at('2024-06-07T09:59:59'), now, 10)).toBe(false);
    expect(isYesterday(at('2024-06-07T10:00:00'), now, 0)).toBe(true);
  });
});

describe('nextStreak (domain facts §3.2 test vectors)', () => {
  it('offset 0 (UTC days)', () => {
    expect(
      run(0, [
        '2024-06-07T21:00:00',
        '2024-06-07T23:00:00',
        '2024-06-08T00:00:00',
        '2024-06-08T23:00:00',
        '2024-06-09T00:00:00',
        '2024-06-11T00:00:00',
      ]),
    ).toEqual([1, 1, 2, 2, 3, 1]);
  });

  it('no offset set behaves as 0', () => {
    expect(run(null, ['2024-06-07T23:59:59', '2024-06-08T00:00:00'])).toEqual([1, 2]);
  });

  it('offset +10: days start at 10:00 UTC', () => {
    expect(
      run(10, [
        '2024-06-06T21:00:00',
        '2024-06-07T01:00:00',
        '2024-06-07T09:00:00',
        '2024-06-07T10:00:00',
        '2024-06-08T09:00:00',
        '2024-06-08T10:00:00',
        '2024-06-10T10:00:00',
      ]),
    ).toEqual([1, 1, 1, 2, 2, 3, 1]);
  });

  it('offset -4: days start at 20:00 UTC the evening before', () => {
    expect(
      run(-4, [
        '2024-06-06T19:00:00',
        '2024-06-06T20:00:00',
        '2024-06-07T19:00:00',
        '2024-06-07T20:00:00',
        '2024-06-09T23:00:00',
      ]),
    ).toEqual([1, 2, 2, 3, 1]);
  });

  it('keeps the longest streak and sets the last result time', () => {
    const next = nextStreak(
      { length: 4, maxLength: 9, lastResultTimestamp: at('2024-06-01T12:00:00'), hourOffset: 0 },
      at('2024-06-02T12:00:00'),
    );
    expect(next).toEqual({
      length: 5,
      maxLength: 9,
      lastResultTimestamp: at('2024-06-02T12:00:00'),
      lost: false,
    });
    const longer = nextStreak({ ...next, maxLength: 5, hourOffset: 0 }, at('2024-06-03T00:00:00'));
    expect(longer.maxLength).toBe(6);
  });

  it('reports a lost streak only when there was one', () => {
    const state = { length: 3, maxLength: 3, lastResultTimestamp: at('2024-06-01T12:00:00'), hourOffset: 0 };
    expect(nextStreak(state, at('2024-06-03T12:00:00'))).toMatchObject({ length: 1, lost: true });
    expect(nextStreak({ ...state, length: 0 }, at('2024-06-03T12:00:00')).lost).toBe(false);
    expect(
      nextStreak({ ...state, lastResultTimestamp: null, length: 0 }, at('2024-06-03T12:00:00')).lost,
    ).toBe(false);
  });

  it.each([
    // [label, offset, offset set at, results, expected lengths]
    [
      'offset -10 set 17:30, first result 22:30 the same offset day stays 0',
      -10,
      '2026-12-20T17:30:00',
      ['2026-12-20T22:30:00'],
      [0],
    ],
    [
      'with offset -10 days start at 14:00 UTC: the next offset day counts as day one',
      -10,
      '2026-12-20T17:30:00',
      ['2026-12-20T22:30:00', '2026-12-21T13:59:00', '2026-12-21T14:00:00', '2026-12-22T14:30:00'],
      [0, 0, 1, 2],
    ],
    [
      'offset +2 set at noon, results that day and the next',
      2,
      '2024-06-03T12:00:00',
      ['2024-06-03T12:00:01', '2024-06-04T02:00:00'],
      [0, 1],
    ],
    [
      'a result two offset days after setting it restarts at 1',
      0,
      '2024-06-03T12:00:00',
      ['2024-06-05T12:00:00'],
      [1],
    ],
  ])('%s', (_label, offset, setAt, times, expected) => {
    // Setting the offset leaves the streak length as it was (0 for a new user) and stamps the last result time.
    let state: StreakState = { length: 0, maxLength: 0, lastResultTimestamp: at(setAt), hourOffset: offset };
    const lengths = times.map((time) => {
      const next = nextStreak(state, at(time));
      state = { ...state, ...next };
      return next.length;
    });
    expect(lengths).toEqual(expected);
  });

  it('a second result on the same day leaves a running streak unchanged', () => {
    const state = { length: 4, maxLength: 6, lastResultTimestamp: at('2024-06-03T08:00:00'), hourOffset: 0 };
    expect(nextStreak(state, at('2024-06-03T20:00:00'))).toMatchObject({
      length: 4,
      maxLength: 6,
      lost: false,
    });
  });
});
