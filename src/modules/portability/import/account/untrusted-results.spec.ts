import { defaultServerConfiguration } from '../../../../config/server-configuration.schema';
import type { ResultData } from '../../export/export-format';
import { UntrustedResults, type FileReview } from './untrusted-results';

const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const OLD = Date.UTC(2025, 0, 6, 12, 0, 0);

/** A steady test's chart: a point a second, each the same speed (so its consistency is 100). */
const steady = (seconds: number, wpm: number) => ({
  wpm: Array<number>(Math.ceil(seconds)).fill(wpm),
  burst: Array<number>(Math.ceil(seconds)).fill(Math.round(wpm)),
  err: Array<number>(Math.ceil(seconds)).fill(0),
});

let n = 0;
const record = (over: Partial<ResultData> = {}): ResultData => {
  const r = base(over);
  return 'chartData' in over ? r : { ...r, chartData: steady(r.testDuration, r.wpm) };
};
const base = (over: Partial<ResultData>): ResultData => ({
  id: `r${(++n).toString().padStart(3, '0')}`,
  timestamp: OLD + n * 3_600_000,
  name: 'typist',
  wpm: 80,
  rawWpm: 82,
  acc: 96,
  consistency: 100,
  keyConsistency: null,
  charStats: [400, 4, 0, 1],
  mode: 'time',
  mode2: '30',
  quoteLength: null,
  language: 'english',
  difficulty: 'normal',
  punctuation: false,
  numbers: false,
  lazyMode: false,
  blindMode: false,
  bailedOut: false,
  stopOnLetter: false,
  funbox: [],
  tags: [],
  testDuration: 30,
  afkDuration: 0,
  incompleteTestSeconds: 0,
  restartCount: 0,
  isPb: true,
  xp: 99_999,
  chartData: null,
  keySpacingStats: { average: 120, sd: 30 },
  keyDurationStats: { average: 90, sd: 20 },
  ...over,
});

function judge(
  records: ResultData[],
  options: { optedOut?: boolean; reviews?: Map<string, FileReview> } = {},
) {
  const results = new UntrustedResults({
    target: { uid: 'here', sourceUid: 'there', present: new Set() },
    optedOut: options.optedOut ?? false,
    config: defaultServerConfiguration().results,
    now: NOW,
    reviews: options.reviews ?? new Map(),
  });
  return records.map((r) => {
    const mapped = results.map(r);
    if (!mapped.ok) return { refused: mapped.reason };
    const row = mapped.value[0]!;
    return { held: row.held?.reasons.map((h) => h.check) ?? [], xp: row.xp, isPb: row.is_pb, uid: row.uid };
  });
}

describe('the results of an untrusted account file, judged as submissions', () => {
  it('accepts a result no board can show, under the account here, its XP and best mark left to the writer', () => {
    expect(judge([record()])).toEqual([{ held: [], xp: 0, isPb: false, uid: 'here' }]);
  });

  it.each([
    ['a board mode (time 15)', { mode2: '15', testDuration: 15 }, ['imported']],
    ['a board mode (words 25)', { mode: 'words', mode2: '25', testDuration: 20 }, ['imported']],
    ["this week's result (weekly XP board)", { timestamp: NOW - 3_600_000 }, ['imported']],
    ['above its ceiling', { mode2: '60', testDuration: 60, wpm: 300, rawWpm: 301 }, ['ceiling', 'imported']],
  ])('holds %s', (_name, over, holds) => {
    expect(judge([record(over)])[0]).toMatchObject({ held: holds });
  });

  it.each([
    ['too short', { mode2: '10', testDuration: 10 }, 'Test is too short (460, check tooShort)'],
    ['under 75 % accuracy', { acc: 60 }, 'Accuracy too low (400, check accuracy: acc 60)'],
    ['more time away than the test', { afkDuration: 40 }, "Result data doesn't make sense (463, check afk"],
    [
      'an impossible funbox pair',
      { funbox: ['rAnDoMcAsE', 'capitals'] },
      'Impossible funbox combination (400',
    ],
    ['a value the live route refuses', { wpm: 500 }, '"wpm" must not be greater than 420'],
    ['from the future', { timestamp: NOW + 3_600_000 }, 'a result from the future'],
    [
      'a fast timed test without its key timings',
      { mode2: '15', testDuration: 15, wpm: 150, rawWpm: 151, keySpacingStats: null },
      'Missing key data (464, check keyData',
    ],
  ])('refuses %s as the live route would', (_name, over, reason) => {
    const [outcome] = judge([record(over as Partial<ResultData>)]);
    expect(outcome).toEqual({ refused: expect.stringContaining(reason) as string });
  });

  it('lets an opted-out account keep a low-accuracy result, as the live route does', () => {
    expect(judge([record({ acc: 60 })], { optedOut: true })[0]).toMatchObject({ held: [] });
  });

  it('refuses a result closer to the previous one than its own length (spacing)', () => {
    const first = record({ timestamp: OLD });
    const second = record({ timestamp: OLD + 20_000 });
    const third = record({ timestamp: OLD + 60_000 });
    expect(judge([first, second, third])).toEqual([
      expect.objectContaining({ held: [] }),
      { refused: 'Invalid result spacing (462, check spacing)' },
      expect.objectContaining({ held: [] }),
    ]);
  });

  it('keeps held what the source held or rejected; an approval in the file counts for nothing', () => {
    const [held, rejected, approved] = [record(), record(), record()];
    const reviews = new Map<string, FileReview>([
      [held.id, { status: 'held', seen: false }],
      [rejected.id, { status: 'rejected', seen: false }],
      [approved.id, { status: 'approved', seen: false }],
    ]);
    expect(judge([held, rejected, approved], { reviews }).map((o) => 'held' in o && o.held)).toEqual([
      ['source'],
      ['source'],
      [],
    ]);
    expect([...reviews.values()].every((r) => r.seen)).toBe(true);
  });
});
