import { sql, type RawBuilder } from 'kysely';
import { INSERT_COLUMNS } from './result-columns';
import type { NewResultRow, SubmissionWrites } from './submission.repository';

type ResultColumn = (typeof INSERT_COLUMNS)[number];

// Personal-best columns after the owner (uid, or tag_id and uid), in the order the inserts give their values.
const PB_KEY = sql.raw('mode, mode2, language, difficulty, punctuation, numbers, lazy_mode');
const PB_COLUMNS = sql.raw(
  'mode, mode2, language, difficulty, punctuation, numbers, lazy_mode, wpm, acc, raw, consistency, timestamp',
);
const PB_UPDATE = sql.raw(
  'wpm = excluded.wpm, acc = excluded.acc, raw = excluded.raw, consistency = excluded.consistency, timestamp = excluded.timestamp',
);

/**
 * Records a result as the best of each of `tagIds` (its bucket and figures in `pbValues`, in `PB_COLUMNS` order):
 * the submission's write statement and re-tagging an old result (`PATCH /results/tags`) share it.
 */
export function upsertTagBests(
  uid: unknown,
  tagIds: unknown,
  pbValues: RawBuilder<unknown>,
): RawBuilder<unknown> {
  return sql`INSERT INTO tag_personal_bests (tag_id, uid, ${PB_COLUMNS})
    SELECT tag_id, ${uid}, ${pbValues} FROM unnest(${tagIds}::text[]) AS tag_id
    ON CONFLICT (tag_id, ${PB_KEY}) DO UPDATE SET ${PB_UPDATE}`;
}

/** Every value of the write statement by name, so it can be a PreparedQuery (its shape is fixed per variant). */
export type WriteValues = { [C in ResultColumn as `result_${C}`]: NewResultRow[C] } & {
  uid: string;
  pb_mode: string;
  pb_mode2: string;
  pb_language: string;
  pb_difficulty: string;
  pb_punctuation: boolean;
  pb_numbers: boolean;
  pb_lazy_mode: boolean;
  pb_wpm: number;
  pb_acc: number;
  pb_raw: number;
  pb_consistency: number;
  pb_timestamp: number;
  pb_held_result_id: string | null;
  tag_pb_ids: string[];
  activity_day: number;
  started_tests: number;
  time_typed: number;
  xp: number;
  streak_length: number;
  streak_max_length: number;
  account_timestamp: number;
  /** Null keeps the stored list (the duplicate check is off). */
  last_result_hashes: string[] | null;
};

const resultName = (column: ResultColumn) => `result_${column}` as const;
const RESULT_NAMES = INSERT_COLUMNS.map(resultName);

export const WRITE_VALUE_NAMES: (keyof WriteValues & string)[] = [
  ...RESULT_NAMES,
  'uid',
  'pb_mode',
  'pb_mode2',
  'pb_language',
  'pb_difficulty',
  'pb_punctuation',
  'pb_numbers',
  'pb_lazy_mode',
  'pb_wpm',
  'pb_acc',
  'pb_raw',
  'pb_consistency',
  'pb_timestamp',
  'pb_held_result_id',
  'tag_pb_ids',
  'activity_day',
  'started_tests',
  'time_typed',
  'xp',
  'streak_length',
  'streak_max_length',
  'account_timestamp',
  'last_result_hashes',
];

/** The statement's variants: with or without the personal-best upsert, with or without the tag-bests upsert. */
export const WRITE_SHAPES = [
  { isPb: false, tagBests: false },
  { isPb: false, tagBests: true },
  { isPb: true, tagBests: false },
  { isPb: true, tagBests: true },
] as const;

export function writeShape(isPb: boolean, tagBests: boolean): number {
  return (isPb ? 2 : 0) + (tagBests ? 1 : 0);
}

export function writeValues(writes: SubmissionWrites): WriteValues {
  const { bucket: b, pbRecord: pb, account } = writes;
  const values: Record<string, unknown> = {
    uid: writes.uid,
    pb_mode: b.mode,
    pb_mode2: b.mode2,
    pb_language: b.language,
    pb_difficulty: b.difficulty,
    pb_punctuation: b.punctuation,
    pb_numbers: b.numbers,
    pb_lazy_mode: b.lazyMode,
    pb_wpm: pb.wpm,
    pb_acc: pb.acc,
    pb_raw: pb.raw,
    pb_consistency: pb.consistency,
    pb_timestamp: pb.timestamp,
    pb_held_result_id: writes.heldResultId,
    tag_pb_ids: writes.tagPbIds,
    activity_day: writes.activityDay,
    started_tests: account.restartCount + 1,
    time_typed: account.timeTyped,
    xp: account.xp,
    streak_length: account.streakLength,
    streak_max_length: account.streakMaxLength,
    account_timestamp: account.timestamp,
    last_result_hashes: account.lastResultHashes,
  };
  // A loop over precomputed names: Object.fromEntries and spreading cost a tenth of a millisecond per submission.
  for (let i = 0; i < INSERT_COLUMNS.length; i++) {
    values[RESULT_NAMES[i] as string] = writes.result[INSERT_COLUMNS[i] as ResultColumn];
  }
  return values as WriteValues;
}

/**
 * Every write of an accepted result in ONE statement (data-modifying CTEs): the result row, the personal best and
 * tag bests (upserts), the test-activity count of the day (upsert) and the user's stats, streak, XP and hashes.
 * Each part touches only this user's rows, and the user row is already locked, so concurrent users never deadlock.
 */
export function writeStatement(v: WriteValues, isPb: boolean, tagBests: boolean): RawBuilder<unknown> {
  const pbValues = sql`${v.pb_mode}, ${v.pb_mode2}, ${v.pb_language}, ${v.pb_difficulty}, ${v.pb_punctuation},
    ${v.pb_numbers}, ${v.pb_lazy_mode}, ${v.pb_wpm}, ${v.pb_acc}, ${v.pb_raw}, ${v.pb_consistency}, ${v.pb_timestamp}`;
  const parts = [
    sql`stored_result AS (
      INSERT INTO results (${sql.raw(INSERT_COLUMNS.join(', '))})
      VALUES (${sql.join(INSERT_COLUMNS.map((column) => v[resultName(column)]))}))`,
  ];
  if (isPb) {
    // held_result_id: a held result's best stays off the boards (the trigger on personal_bests reads it).
    parts.push(sql`personal_best AS (
      INSERT INTO personal_bests (uid, ${PB_COLUMNS}, held_result_id)
      VALUES (${v.uid}, ${pbValues}, ${v.pb_held_result_id}::text)
      ON CONFLICT (uid, ${PB_KEY}) DO UPDATE SET ${PB_UPDATE}, held_result_id = excluded.held_result_id)`);
  }
  if (tagBests) parts.push(sql`tag_bests AS (${upsertTagBests(v.uid, v.tag_pb_ids, pbValues)})`);
  parts.push(sql`activity AS (
    INSERT INTO test_activity (uid, day, tests) VALUES (${v.uid}, ${v.activity_day}, 1)
    ON CONFLICT (uid, day) DO UPDATE SET tests = test_activity.tests + 1)`);
  // started_tests is int4 and a client may claim up to 2^31-1 restarts per test: the sum saturates, never overflows.
  parts.push(sql`account AS (
    UPDATE users SET
      completed_tests = completed_tests + 1,
      started_tests = LEAST(started_tests::int8 + ${v.started_tests}::int8, 2147483647),
      time_typing = time_typing + ${v.time_typed},
      xp = xp + ${v.xp},
      streak_length = ${v.streak_length},
      streak_max_length = ${v.streak_max_length},
      streak_last_result_at = ${v.account_timestamp},
      last_result_at = ${v.account_timestamp},
      last_result_hashes = coalesce(${v.last_result_hashes}::text[], last_result_hashes)
    WHERE uid = ${v.uid})`);
  return sql`WITH ${sql.join(parts)} SELECT 1`;
}
