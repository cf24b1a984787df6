import type { Results } from '../../infra/database/database.types';

// The list leaves out the heavy parts (chart, key statistics) and the name, as the original's minified results.
export const LIST_COLUMNS = [
  'id',
  'uid',
  'timestamp',
  'wpm',
  'raw_wpm',
  'acc',
  'consistency',
  'key_consistency',
  'char_stats',
  'mode',
  'mode2',
  'quote_length',
  'language',
  'difficulty',
  'punctuation',
  'numbers',
  'lazy_mode',
  'blind_mode',
  'bailed_out',
  'funbox',
  'tags',
  'test_duration',
  'afk_duration',
  'incomplete_test_seconds',
  'restart_count',
  'is_pb',
] as const satisfies readonly (keyof Results)[];

/** Every column of a result: the list's plus the name and the heavy parts (single-result read, submission insert). */
export const RESULT_COLUMNS = [
  ...LIST_COLUMNS,
  'name',
  'chart_data',
  'key_spacing_stats',
  'key_duration_stats',
] as const satisfies readonly (keyof Results)[];

/** What the submission inserts: every column of a result plus the facts only the board catch-up reads. */
export const INSERT_COLUMNS = [
  ...RESULT_COLUMNS,
  'xp',
  'stop_on_letter',
] as const satisfies readonly (keyof Results)[];
