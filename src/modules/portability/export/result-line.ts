import type { Results } from '../../../infra/database/database.types';
import type { ResultData } from './export-format';

/**
 * How a result column reaches its record: `text` as a JSON string; `number` and `boolean` as they are; `array` and
 * `json` (PostgreSQL arrays and jsonb) read as JSON text from the database (`array_to_json(..)::text`,
 * `..::text`) and written as they come.
 */
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

/** A result row as the export cursor reads it: arrays and jsonb as JSON text, the rest as parsed by pg. */
export type ResultTextRow = Record<(typeof RESULT_FIELDS)[number][1], string | number | boolean | null>;

const PARTS = RESULT_FIELDS.map(([field, column, kind], i) => ({
  prefix: `${i === 0 ? '' : ','}${JSON.stringify(field)}:`,
  column,
  kind,
}));

/**
 * One result's NDJSON line, written straight from the row: the history is most of an export, and a line built as text
 * (no object per row, no re-parsing of the chart's JSON) streams several times faster than mapping each row to a
 * record and serialising it (issue 22, item 6: 50,000 records/s). Numbers print as JSON.stringify prints them.
 */
export function resultLine(row: ResultTextRow): string {
  let out = '{"type":"result","data":{';
  for (const part of PARTS) {
    const value = row[part.column];
    out += part.prefix;
    if (value === null || value === undefined) out += 'null';
    else if (part.kind === 'text') out += JSON.stringify(value);
    else out += String(value);
  }
  return `${out}}}\n`;
}
