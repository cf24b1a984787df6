import { RESULT_FIELDS, resultLine, type ResultTextRow } from './result-line';

/** A row as the export cursor reads it. */
function row(overrides: Partial<ResultTextRow> = {}): ResultTextRow {
  return {
    id: '6750c0ffee0123456789abcd',
    timestamp: 1_767_225_600_000,
    name: 'typist',
    wpm: 0.1 + 0.2,
    raw_wpm: 1e21,
    acc: 96.55,
    consistency: 74.25,
    key_consistency: null,
    char_stats: '[200,0,1,0]',
    mode: 'time',
    mode2: '60',
    quote_length: null,
    language: 'english',
    difficulty: 'normal',
    punctuation: true,
    numbers: false,
    lazy_mode: false,
    blind_mode: false,
    bailed_out: false,
    stop_on_letter: false,
    funbox: '["mirror","a \\"quoted\\" one"]',
    tags: '[]',
    test_duration: 60.02,
    afk_duration: 0,
    incomplete_test_seconds: 1.5,
    restart_count: 2,
    is_pb: true,
    xp: 12,
    chart_data: '{"wpm": [70, 80.5], "err": [0, 1]}',
    key_spacing_stats: null,
    key_duration_stats: '{"sd": 8.16, "average": 90}',
    ...overrides,
  };
}

/** The same record built the plain way: an object, serialised. */
function expected(r: ResultTextRow): Record<string, unknown> {
  return Object.fromEntries(
    RESULT_FIELDS.map(([field, column, kind]) => {
      const value = r[column];
      return [
        field,
        (kind === 'array' || kind === 'json') && value !== null ? JSON.parse(String(value)) : value,
      ];
    }),
  );
}

describe('resultLine (export results as text)', () => {
  it.each([
    ['a full row', row()],
    [
      'strings needing escapes',
      row({ name: 'quote " back \\ slash \n new line \u2028 ünïcödé 🎹', mode2: '"15"' }),
    ],
    ['nulls everywhere they may be', row({ char_stats: null, chart_data: null, key_duration_stats: null })],
  ])('writes %s as one line whose record equals the serialised object', (_label, r) => {
    const line = resultLine(r);
    expect(line.endsWith('}\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ type: 'result', data: expected(r) });
  });

  it('writes numbers exactly as JSON.stringify does, and keeps the record order', () => {
    const r = row({
      consistency: -0,
      chart_data: '{"wpm":[1]}',
      key_duration_stats: '{"sd":1}',
      funbox: '["x"]',
    });
    expect(resultLine(r)).toBe(`${JSON.stringify({ type: 'result', data: expected(r) })}\n`);
  });
});
