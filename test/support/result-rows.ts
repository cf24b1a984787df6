import type { ResultRow } from '../../src/modules/portability/import/import-records';

/**
 * A stored result row (the `results` table's columns) as the importers write it: a plain time 60 test, with `over`
 * on top. Unit specs of the import's rules and replay start from it.
 */
export function resultRow(over: Partial<ResultRow> = {}): ResultRow {
  return {
    id: '6750c0ffee0123456789abcd',
    uid: 'uid1',
    timestamp: 1_700_000_000_000,
    name: 'typist',
    wpm: 92.4,
    raw_wpm: 95,
    acc: 97.1,
    consistency: 80,
    key_consistency: 60,
    char_stats: [300, 3, 0, 1],
    mode: 'time',
    mode2: '60',
    quote_length: null,
    language: 'english',
    difficulty: 'normal',
    punctuation: false,
    numbers: false,
    lazy_mode: false,
    blind_mode: false,
    bailed_out: false,
    funbox: [],
    tags: [],
    test_duration: 60,
    afk_duration: 0,
    incomplete_test_seconds: 0,
    restart_count: 0,
    is_pb: false,
    chart_data: { wpm: [90, 92], burst: [91, 93], err: [0, 1] },
    key_spacing_stats: null,
    key_duration_stats: null,
    xp: 40,
    stop_on_letter: false,
    ...over,
  };
}
