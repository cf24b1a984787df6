import { Int32, ObjectId } from 'bson';
import { funboxList, mapResult } from './results';

const base = {
  _id: new ObjectId('65a000000000000000000001'),
  uid: 'u1',
  wpm: 100,
  rawWpm: 105,
  acc: 98,
  mode: 'time',
  mode2: '15',
  timestamp: 1_700_000_000_000,
  testDuration: 15,
  consistency: 80,
  charStats: [250, 2, 0, 1],
};
const mapped = (extra: Record<string, unknown>) => {
  const m = mapResult({ ...base, ...extra });
  if (!m.ok) throw new Error(m.reason);
  return m.value;
};
const refused = (extra: Record<string, unknown>) => {
  const m = mapResult({ ...base, ...extra });
  return m.ok ? null : m.reason;
};

describe('results of the original, every shape it wrote', () => {
  it.each([
    ['none', []],
    ['', []],
    [undefined, []],
    ['mirror', ['mirror']],
    ['mirror#nospace', ['mirror', 'nospace']],
    [
      ['mirror', 'nospace'],
      ['mirror', 'nospace'],
    ],
    ['rAnDoMcAsE#IPv4', ['rAnDoMcAsE', 'IPv4']],
    [['ALL_CAPS', 'ALL_CAPS'], ['ALL_CAPS']],
    [[7], undefined],
    [42, undefined],
  ])('funbox %p → %p', (value, expected) => {
    expect(funboxList(value)).toEqual(expected);
  });

  it('keeps the ObjectId as the id and fills the defaults the original omitted', () => {
    expect(mapped({})).toMatchObject({
      id: '65a000000000000000000001',
      name: null,
      language: 'english',
      difficulty: 'normal',
      punctuation: false,
      funbox: [],
      tags: [],
      restart_count: 0,
      is_pb: false,
      chart_data: null,
      xp: 0,
    });
  });

  it.each([
    ['mode2 as a number', { mode2: new Int32(60) }, { mode2: '60' }],
    [
      'a quote id as a number',
      { mode: 'quote', mode2: 123, quoteLength: 2 },
      { mode2: '123', quote_length: 2 },
    ],
    ['zen', { mode: 'zen', mode2: 0 }, { mode2: 'zen' }],
    [
      'the old chart',
      { chartData: { wpm: [1], raw: [2.4], err: [0] } },
      { chart_data: { wpm: [1], burst: [2], err: [0] } },
    ],
    ['"toolong"', { chartData: 'toolong' }, { chart_data: 'toolong' }],
    [
      'a chart over 122 points',
      { chartData: { wpm: Array(130).fill(1), burst: Array(130).fill(1), err: Array(130).fill(0) } },
      { chart_data: 'toolong' },
    ],
    [
      'raw key timings',
      { keySpacing: [100, 200], keyDuration: 'toolong' },
      { key_spacing_stats: { average: 150, sd: 50 }, key_duration_stats: null },
    ],
    [
      'char counts',
      { charStats: undefined, correctChars: 300, incorrectChars: 4 },
      { char_stats: [300, 4, 0, 0] },
    ],
    ['a date', { timestamp: new Date(1_600_000_000_000) }, { timestamp: 1_600_000_000_000 }],
    ['a duration as text', { testDuration: '60.02' }, { test_duration: 60.02 }],
    ['no duration on a timed test', { testDuration: undefined, mode2: '30' }, { test_duration: 30 }],
    ['a renamed language', { language: 'english_expanded' }, { language: 'english_1k' }],
    [
      'ObjectId tags',
      { tags: [new ObjectId('65a000000000000000000002')] },
      { tags: ['65a000000000000000000002'] },
    ],
    ['afk over the duration', { afkDuration: 20 }, { afk_duration: 15 }],
    ['a funbox of capitals', { funbox: ['rAnDoMcAsE'] }, { funbox: ['rAnDoMcAsE'] }],
    ['a funbox the original retired', { funbox: 'upsidedown' }, { funbox: ['upsidedown'] }],
  ])('%s', (_, extra, expected) => {
    expect(mapped(extra)).toMatchObject(expected);
  });

  it.each([
    [{ _id: undefined }, 'no usable _id'],
    [{ uid: undefined }, 'no valid uid'],
    [{ mode: 'marathon' }, 'unknown mode marathon'],
    [{ mode2: 'abc' }, 'mode2 abc does not fit mode time'],
    // The live route's rules, with its messages (live-rules.ts).
    [{ wpm: 999 }, '"wpm" must not be greater than 420'],
    [{ acc: 101 }, '"acc" must not be greater than 100'],
    [{ language: 'not_a_language' }, '"language" must be a supported language'],
    [{ difficulty: 'insane' }, '"difficulty" must be one of the following values: normal, expert, master'],
    [{ funbox: ['Bad Name'] }, '"funbox" must be a known funbox'],
    [{ funbox: 'mirror#randomcase' }, '"funbox" must be a known funbox'],
    [{ mode: 'words', mode2: '10', testDuration: undefined }, 'no test duration'],
    [{ timestamp: 'never' }, 'no timestamp'],
  ])('refuses %p: %s', (extra, reason) => {
    expect(refused(extra)).toBe(reason);
  });
});
