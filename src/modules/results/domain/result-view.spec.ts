import { toApiResult, type ResultRecord } from './result-view';

const record: ResultRecord = {
  id: 'abc',
  uid: 'u1',
  timestamp: 1000,
  wpm: 80,
  rawWpm: 82,
  acc: 96,
  consistency: 70,
  keyConsistency: null,
  charStats: null,
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
  funbox: [],
  tags: [],
  testDuration: 30,
  afkDuration: 0,
  incompleteTestSeconds: 0,
  restartCount: 0,
  isPb: false,
};

describe('toApiResult', () => {
  it('leaves out every field at its default', () => {
    expect(toApiResult(record)).toEqual({
      _id: 'abc',
      uid: 'u1',
      wpm: 80,
      rawWpm: 82,
      acc: 96,
      mode: 'time',
      mode2: '30',
      timestamp: 1000,
      testDuration: 30,
      consistency: 70,
    });
  });

  it('includes every field that differs from its default', () => {
    const full = toApiResult({
      ...record,
      mode: 'quote',
      mode2: '77',
      quoteLength: 2,
      keyConsistency: 40,
      charStats: [1, 2, 3, 4],
      language: 'german',
      difficulty: 'master',
      punctuation: true,
      numbers: true,
      lazyMode: true,
      blindMode: true,
      bailedOut: true,
      funbox: ['mirror'],
      tags: ['t1'],
      afkDuration: 2,
      incompleteTestSeconds: 3,
      restartCount: 4,
      isPb: true,
      name: 'someone',
      chartData: 'toolong',
      keySpacingStats: { average: 1, sd: 2 },
      keyDurationStats: null,
    });
    expect(full).toMatchObject({
      quoteLength: 2,
      keyConsistency: 40,
      charStats: [1, 2, 3, 4],
      language: 'german',
      difficulty: 'master',
      punctuation: true,
      numbers: true,
      lazyMode: true,
      blindMode: true,
      bailedOut: true,
      funbox: ['mirror'],
      tags: ['t1'],
      afkDuration: 2,
      incompleteTestSeconds: 3,
      restartCount: 4,
      isPb: true,
      name: 'someone',
      chartData: 'toolong',
      keySpacingStats: { average: 1, sd: 2 },
    });
    expect(full).not.toHaveProperty('keyDurationStats');
  });

  it('shows a quote length only in quote mode', () => {
    expect(toApiResult({ ...record, quoteLength: 1 })).not.toHaveProperty('quoteLength');
  });
});
