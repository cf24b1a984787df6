import type { ResultRow } from './import-records';
import { resultRow } from '../../../../test/support/result-rows';
import { isImportableFunbox, personalBestProblem, resultProblem, RETIRED_FUNBOXES } from './live-rules';

const result = resultRow;

describe('the live rules for imported results', () => {
  it('accepts a result POST /results accepts', () => {
    expect(resultProblem(result())).toBeNull();
    expect(resultProblem(result({ mode: 'quote', mode2: '1234', quote_length: 2 }))).toBeNull();
    expect(resultProblem(result({ mode: 'zen', mode2: 'zen', chart_data: 'toolong' }))).toBeNull();
    expect(resultProblem(result({ char_stats: null, key_consistency: null, chart_data: null }))).toBeNull();
  });

  it.each([
    ['wpm above 420', { wpm: 420.01 }, '"wpm" must not be greater than 420'],
    ['rawWpm below 0', { raw_wpm: -1 }, '"rawWpm" must not be less than 0'],
    ['accuracy above 100', { acc: 100.5 }, '"acc" must not be greater than 100'],
    ['an unknown mode', { mode: 'marathon' }, '"mode" must be one of the following values'],
    ['a mode2 that does not fit its mode', { mode2: 'sixty' }, '"mode2" must be a number as text'],
    ['zen with a number', { mode: 'zen', mode2: '60' }, '"mode2" must be a number as text'],
    ['an unknown language', { language: 'martian_1k' }, '"language" must be a supported language'],
    ['an unknown difficulty', { difficulty: 'insane' }, '"difficulty" must be one of the following values'],
    ['an unknown funbox', { funbox: ['teleport'] }, '"funbox" must be a known funbox'],
    ['a tag that is not an id', { tags: ['no spaces'] }, '"tags" must be a valid id'],
    ['charStats of three counts', { char_stats: [1, 2, 3] }, '"charStats" must contain at least 4 elements'],
    [
      'a quote length of 4',
      { mode: 'quote', mode2: '9', quote_length: 4 },
      '"quoteLength" must not be greater than 3',
    ],
    ['a test of no time', { test_duration: 0 }, '"testDuration" must not be less than 1'],
    [
      'a chart of 200 points',
      { chart_data: { wpm: Array(200).fill(1), burst: [1], err: [0] } },
      '"chartData" must be',
    ],
  ] as const)('refuses %s with the live message', (_name, over, message) => {
    expect(resultProblem(result(over as Partial<ResultRow>))).toContain(message);
  });

  it("takes every funbox of the original's list, its capitals included", () => {
    for (const name of ['rAnDoMcAsE', 'sPoNgEcAsE', 'IPv4', 'IPv6', 'ALL_CAPS', '58008', 'layoutfluid'])
      expect({ name, problem: resultProblem(result({ funbox: [name] })) }).toEqual({ name, problem: null });
  });

  it('keeps the funbox names the original has retired as labels, and no other unknown name', () => {
    for (const name of RETIRED_FUNBOXES) {
      expect(isImportableFunbox(name)).toBe(true);
      expect(resultProblem(result({ funbox: [name] }))).toBeNull();
    }
    expect(isImportableFunbox('randomcase')).toBe(false);
    expect(isImportableFunbox('rAnDoMcAsE')).toBe(true);
  });

  it("checks a personal best's bucket and figures by the same rules", () => {
    const pb = {
      ...{ mode: 'time', mode2: '15', language: 'english', difficulty: 'normal' },
      ...{ punctuation: false, numbers: false, lazy_mode: false },
      ...{ wpm: 120, acc: 98, raw: 125, consistency: 77, timestamp: 1_700_000_000_000 },
    };
    expect(personalBestProblem(pb)).toBeNull();
    expect(personalBestProblem({ ...pb, wpm: 500 })).toContain('"wpm" must not be greater than 420');
    expect(personalBestProblem({ ...pb, language: 'elvish' })).toContain(
      '"language" must be a supported language',
    );
    expect(personalBestProblem({ ...pb, mode: 'words', mode2: 'ten' })).toContain('"mode2"');
  });
});
