import type { Results } from '../../../infra/database/database.types';
import type { ResultData } from './export-format';

/** How a result column is written into its record's JSON (by PostgreSQL, see export.repository.ts). */
export type ResultFieldKind = 'text' | 'number' | 'boolean' | 'array' | 'json';

/** The result record, field by field from its column, in record order (export-format.ts `ResultData`). */
export const RESULT_FIELDS = [
  ['id', 'id', 'text'],
  ['timestamp', 'timestamp', 'number'],
  ['name', 'name', 'text'],
  ['wpm', 'wpm', 'number'],
  ['rawWpm', 'raw_wpm', 'number'],
  ['acc', 'acc', 'number'],
  ['consistency', 'consistency', 'number'],
  ['keyConsistency', 'key_consistency', 'number'],
  ['charStats', 'char_stats', 'array'],
  ['mode', 'mode', 'text'],
  ['mode2', 'mode2', 'text'],
  ['quoteLength', 'quote_length', 'number'],
  ['language', 'language', 'text'],
  ['difficulty', 'difficulty', 'text'],
  ['punctuation', 'punctuation', 'boolean'],
  ['numbers', 'numbers', 'boolean'],
  ['lazyMode', 'lazy_mode', 'boolean'],
  ['blindMode', 'blind_mode', 'boolean'],
  ['bailedOut', 'bailed_out', 'boolean'],
  ['stopOnLetter', 'stop_on_letter', 'boolean'],
  ['funbox', 'funbox', 'array'],
  ['tags', 'tags', 'array'],
  ['testDuration', 'test_duration', 'number'],
  ['afkDuration', 'afk_duration', 'number'],
  ['incompleteTestSeconds', 'incomplete_test_seconds', 'number'],
  ['restartCount', 'restart_count', 'number'],
  ['isPb', 'is_pb', 'boolean'],
  ['xp', 'xp', 'number'],
  ['chartData', 'chart_data', 'json'],
  ['keySpacingStats', 'key_spacing_stats', 'json'],
  ['keyDurationStats', 'key_duration_stats', 'json'],
] as const satisfies readonly (readonly [keyof ResultData, keyof Results, ResultFieldKind])[];

// Compile-time: every field of the record has its column above.
type UnbuiltField = Exclude<keyof ResultData, (typeof RESULT_FIELDS)[number][0]>;
const everyFieldBuilt: UnbuiltField extends never ? true : UnbuiltField = true;
void everyFieldBuilt;

/**
 * One result's NDJSON line around its record data, which PostgreSQL writes as JSON text from RESULT_FIELDS
 * (export.repository.ts): the history is most of an export, and text that needs no parsing into a row object, no
 * mapping and no re-serialising here streams several times faster (issue 22, item 6: 50,000 records/s).
 */
export function resultLine(data: string): string {
  return `{"type":"result","data":${data}}\n`;
}
