/**
 * The seeder's SQL. Everything is generated server-side (generate_series), one batch of users per transaction, so a
 * batch costs a handful of round trips however many rows it writes. Distributions are drawn in SQL; `normal()` is a
 * Box-Muller draw so the statements also run on PostgreSQL 15 (random_normal() is 16+).
 */

const DAY_MS = 86_400_000;

/** A normally distributed draw, as an SQL expression. */
function normal(mean: number | string, sd: number): string {
  return `(${mean} + ${sd} * sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))`;
}

function clamp(expression: string, min: number, max: number): string {
  return `greatest(${min}, least(${max}, ${expression}))`;
}

/**
 * A full user's traits, drawn once per user and kept in a temporary table for the batch's statements.
 * Parameters: $1 first index, $2 end index (exclusive), $3 now (ms).
 */
export const FULL_USERS_BATCH = `
  CREATE TEMP TABLE seed_users ON COMMIT DROP AS
  SELECT i,
         substr(md5('bench:' || i), 1, 28) AS uid,
         'typist' || i AS name,
         ${clamp(normal(72, 22), 15, 200)} AS skill,
         -- 40 % typed in the last day (active users); the rest up to two months ago.
         $3::bigint - 3600000 - (CASE WHEN random() < 0.4 THEN random() * ${DAY_MS}
                                      ELSE random() * ${60 * DAY_MS} END)::bigint AS last_at,
         -- Time between two results: a minute to two days.
         (60000 + random() * ${2 * DAY_MS})::bigint AS gap,
         -- The language a user types in most.
         CASE WHEN p < 0.72 THEN 'english' WHEN p < 0.78 THEN 'english_1k' WHEN p < 0.80 THEN 'english_10k'
              WHEN p < 0.83 THEN 'german' WHEN p < 0.86 THEN 'spanish' WHEN p < 0.88 THEN 'french'
              WHEN p < 0.90 THEN 'portuguese' WHEN p < 0.92 THEN 'russian' WHEN p < 0.93 THEN 'italian'
              WHEN p < 0.94 THEN 'polish' ELSE 'code_javascript' END AS lang,
         -- Total typing time: log-normal around 4 hours, so about 70 % pass the 2-hour leaderboard threshold.
         exp(${normal('ln(15000)', 1.3)}) AS time_typing,
         random() AS r1, random() AS r2, random() AS r3, random() AS r4, random() AS r5
  FROM (SELECT i, random() AS p FROM generate_series($1::int, $2::int - 1) AS i) AS drawn
`;

/** Parameters: $1 results per user, $2 now (ms). */
export const FULL_USERS_INSERT = `
  INSERT INTO users (uid, name, email, added_at, banned, lb_opt_out, completed_tests, started_tests, time_typing, xp,
                     streak_length, streak_max_length, streak_last_result_at, last_result_at, last_result_hashes,
                     profile_bio, profile_keyboard, profile_social_profiles, profile_show_activity,
                     inventory_badges, premium_start_at, premium_expires_at)
  SELECT uid, name, name || '@bench.test',
         last_at - $1::int * gap - (random() * ${730 * DAY_MS})::bigint,
         r1 < 0.002, r2 < 0.005,
         completed, (completed * (1.2 + random() * 0.6))::int, time_typing,
         (time_typing * (1.5 + random()))::bigint,
         streak, streak + (random() * 30)::int, last_at, last_at,
         ARRAY(SELECT md5(uid || ':' || g) FROM generate_series(1, 10) AS g),
         CASE WHEN r3 < 0.2 THEN 'I type, therefore I am.' END,
         CASE WHEN r3 < 0.3 THEN 'keychron q1, gateron yellows' END,
         CASE WHEN r3 < 0.1 THEN '{"github": "typist", "website": "https://example.com"}'::jsonb ELSE '{}'::jsonb END,
         r4 < 0.3,
         CASE WHEN r5 < 0.05 THEN '[{"id": 1, "selected": true}, {"id": 4}]'::jsonb ELSE '[]'::jsonb END,
         CASE WHEN r5 > 0.99 THEN last_at END,
         CASE WHEN r5 > 0.99 THEN -1 END
  FROM (SELECT s.*,
               greatest($1::int, (time_typing / 35)::int) AS completed,
               -- Only users active in the last two days still have a streak; a few are past a year.
               CASE WHEN last_at > $2::bigint - ${2 * DAY_MS} THEN 1 + floor(power(random(), 3) * 400)::int
                    ELSE 0 END AS streak
        FROM seed_users AS s) AS u
`;

/** Columns of `results` in the order the seeder's temporary copy holds them. */
const RESULT_COLUMNS = `id, uid, timestamp, name, wpm, raw_wpm, acc, consistency, key_consistency, char_stats, mode,
  mode2, quote_length, language, difficulty, punctuation, numbers, lazy_mode, blind_mode, bailed_out, funbox, tags,
  test_duration, afk_duration, incomplete_test_seconds, restart_count, is_pb, chart_data, key_spacing_stats,
  key_duration_stats`;

/** Rounds a double to two decimals without going through numeric (which costs more than the rest of a row). */
function round2(expression: string): string {
  return `(round((${expression}) * 100) / 100)`;
}

/**
 * The batch's result histories, generated into a temporary table first: the personal bests and the test activity are
 * derived from it without reading the large table back. `is_pb` marks results faster than every earlier one in their
 * bucket. Parameters: $1 results per user.
 */
export const FULL_RESULTS_GENERATE = `
  CREATE TEMP TABLE seed_results ON COMMIT DROP AS
  SELECT substr(md5(uid || ':' || k || ':' || ts), 1, 24) AS id, uid, ts AS timestamp, name,
         wpm, ${round2('wpm * (1 + random() * 0.08)')} AS raw_wpm,
         ${round2(clamp(normal(95.5, 2.5), 75, 100))} AS acc,
         ${round2(clamp(normal(74, 8), 20, 100))} AS consistency,
         ${round2(clamp(normal(68, 9), 20, 100))} AS key_consistency,
         ARRAY[(wpm * test_duration / 12)::int, (random() * 6)::int, (random() * 1.5)::int,
               (random() * 1.5)::int] AS char_stats,
         mode, mode2,
         CASE WHEN mode = 'quote' THEN floor(rm2 * 4)::smallint END AS quote_length,
         language, difficulty, punctuation, numbers, false AS lazy_mode, random() < 0.01 AS blind_mode,
         random() < 0.005 AS bailed_out,
         CASE WHEN random() < 0.03 THEN '{mirror}'::text[] ELSE '{}'::text[] END AS funbox, '{}'::text[] AS tags,
         test_duration,
         CASE WHEN random() < 0.1 THEN ${round2('random() * 2')} ELSE 0 END AS afk_duration,
         CASE WHEN random() < 0.3 THEN ${round2('random() * 20')} ELSE 0 END AS incomplete_test_seconds,
         CASE WHEN random() < 0.3 THEN (random() * 4)::int ELSE 0 END AS restart_count,
         mode <> 'quote' AND wpm > coalesce(max(wpm) OVER (
           PARTITION BY uid, mode, mode2, language, difficulty, punctuation, numbers
           ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), -1) AS is_pb,
         NULL::jsonb AS chart_data,
         CASE WHEN mode IN ('time', 'words') THEN jsonb_build_object(
           'average', ${round2('12000 / wpm')}, 'sd', ${round2('3000 / wpm')}) END AS key_spacing_stats,
         CASE WHEN mode IN ('time', 'words') THEN jsonb_build_object(
           'average', ${round2('60 + random() * 40')}, 'sd', ${round2('15 + random() * 10')}) END
           AS key_duration_stats
  FROM (
    SELECT t.*,
           ${round2(`CASE mode
             WHEN 'time' THEN mode2::int + random() * 0.1
             WHEN 'words' THEN mode2::int * 60.0 / wpm
             WHEN 'quote' THEN 15 + rm2 * 90
             WHEN 'zen' THEN 30 + rm2 * 200
             ELSE 20 + rm2 * 100 END`)} AS test_duration
    FROM (
      SELECT d.*,
             CASE mode
               WHEN 'time' THEN CASE WHEN rm2 < 0.45 THEN '15' WHEN rm2 < 0.65 THEN '30' WHEN rm2 < 0.95 THEN '60'
                                     ELSE '120' END
               WHEN 'words' THEN CASE WHEN rm2 < 0.25 THEN '10' WHEN rm2 < 0.70 THEN '25' WHEN rm2 < 0.90 THEN '50'
                                      ELSE '100' END
               WHEN 'quote' THEN (1 + floor(rm2 * 6000))::int::text
               ELSE mode END AS mode2
      FROM (
        SELECT u.uid, u.name, k, u.last_at - ($1::int - k) * u.gap AS ts,
               CASE WHEN random() < 0.9 THEN u.lang ELSE 'english' END AS language,
               ${round2(clamp(normal('u.skill', 7), 5, 250))} AS wpm,
               CASE WHEN rm < 0.55 THEN 'time' WHEN rm < 0.80 THEN 'words' WHEN rm < 0.90 THEN 'quote'
                    WHEN rm < 0.93 THEN 'zen' ELSE 'custom' END AS mode,
               CASE WHEN rf < 0.10 THEN random() < 0.7 ELSE false END AS punctuation,
               rf < 0.04 AS numbers,
               CASE WHEN rf > 0.995 THEN 'master' WHEN rf > 0.985 THEN 'expert' ELSE 'normal' END AS difficulty,
               rm2
        -- Draws in a subquery's select list are made once per row (PostgreSQL keeps such subqueries apart).
        FROM (SELECT u.*, k, random() AS rm, random() AS rm2, random() AS rf
              FROM seed_users AS u CROSS JOIN generate_series(1, $1::int) AS k) AS u
      ) AS d
    ) AS t
  ) AS m
`;

/** In time order, so one user's results spread over the table as they would in production. */
export const FULL_RESULTS_INSERT = `
  INSERT INTO results (${RESULT_COLUMNS}) SELECT ${RESULT_COLUMNS} FROM seed_results ORDER BY timestamp
`;

/** Each bucket's fastest result becomes the personal best (never quotes or abandoned tests, as the service). */
export const FULL_PERSONAL_BESTS_INSERT = `
  INSERT INTO personal_bests (uid, mode, mode2, language, difficulty, punctuation, numbers, lazy_mode, wpm, acc, raw,
                              consistency, timestamp)
  SELECT DISTINCT ON (uid, mode, mode2, language, difficulty, punctuation, numbers, lazy_mode)
         uid, mode, mode2, language, difficulty, punctuation, numbers, lazy_mode, wpm, acc, raw_wpm, consistency,
         timestamp
  FROM seed_results
  WHERE mode <> 'quote' AND NOT bailed_out
  ORDER BY uid, mode, mode2, language, difficulty, punctuation, numbers, lazy_mode, wpm DESC, timestamp
`;

export const FULL_TEST_ACTIVITY_INSERT = `
  INSERT INTO test_activity (uid, day, tests)
  SELECT uid, (timestamp / ${DAY_MS})::int, count(*) FROM seed_results GROUP BY 1, 2
`;

/**
 * Board users: accounts with typing time above the leaderboard threshold (log-normal, so a rebuild can be run over a
 * chosen number of eligible users by raising the threshold) and personal bests on the all-time boards.
 * Parameters: $1 first index, $2 end index (exclusive), $3 now (ms).
 */
export const BOARD_USERS_INSERT = `
  INSERT INTO users (uid, name, email, added_at, banned, lb_opt_out, completed_tests, started_tests, time_typing, xp,
                     streak_length, streak_max_length, streak_last_result_at, last_result_at)
  SELECT uid, 'typist' || i, 'typist' || i || '@bench.test', last_at - (random() * ${1000 * DAY_MS})::bigint,
         random() < 0.002, random() < 0.005, (time_typing / 35)::int, (time_typing / 25)::int, time_typing,
         (time_typing * 2)::bigint, 0, (random() * 60)::int, last_at, last_at
  FROM (SELECT i, substr(md5('bench:' || i), 1, 28) AS uid,
               7201 + exp(${normal('ln(20000)', 1.2)}) AS time_typing,
               $3::bigint - ${DAY_MS} - (random() * ${365 * DAY_MS})::bigint AS last_at
        FROM generate_series($1::int, $2::int - 1) AS i) AS u
`;

/**
 * Board users' personal bests: everyone on english time 15 (the 1,000,000-entry board), some on the other english
 * boards, about 1 % on german time 15 (with the full users, the 10,000-entry board), and a sweep that puts users on
 * every language's six boards. A few punctuation bests that no board may show.
 * Parameters: $1 first index, $2 end index (exclusive), $3 now (ms), $4 languages, $5 modes, $6 mode2s.
 */
export const BOARD_PERSONAL_BESTS_INSERT = `
  INSERT INTO personal_bests (uid, mode, mode2, language, difficulty, punctuation, numbers, lazy_mode, wpm, acc, raw,
                              consistency, timestamp)
  WITH u AS MATERIALIZED (
    SELECT i, substr(md5('bench:' || i), 1, 28) AS uid, ${clamp(normal(80, 24), 15, 230)} AS skill,
           (i % (6 * cardinality($4::text[]))) AS sweep
    FROM generate_series($1::int, $2::int - 1) AS i
  ), entries AS (
    SELECT uid, skill, 'english' AS language, 'time' AS mode, '15' AS mode2, false AS punctuation FROM u
    UNION ALL SELECT uid, skill, 'english', 'time', '60', false FROM u WHERE random() < 0.4
    UNION ALL SELECT uid, skill, 'english', 'words', '10', false FROM u WHERE random() < 0.05
    UNION ALL SELECT uid, skill, 'english', 'words', '25', false FROM u WHERE random() < 0.3
    UNION ALL SELECT uid, skill, 'english', 'words', '50', false FROM u WHERE random() < 0.1
    UNION ALL SELECT uid, skill, 'english', 'words', '100', false FROM u WHERE random() < 0.03
    UNION ALL SELECT uid, skill, 'german', 'time', '15', false FROM u WHERE random() < 0.0078
    UNION ALL SELECT uid, skill, ($4::text[])[1 + sweep / 6], ($5::text[])[1 + sweep % 6], ($6::text[])[1 + sweep % 6],
                     false FROM u
    UNION ALL SELECT uid, skill, 'english', 'time', '15', true FROM u WHERE random() < 0.05
  )
  SELECT uid, mode, mode2, language, 'normal', punctuation, false, false,
         ${round2(clamp(normal('skill', 4), 10, 250))},
         ${round2(clamp(normal(96, 2), 75, 100))},
         ${round2(clamp(normal('skill + 3', 3), 10, 260))},
         ${round2(clamp(normal(76, 7), 20, 100))},
         $3::bigint - (random() * ${1000 * DAY_MS})::bigint
  FROM entries
  ON CONFLICT DO NOTHING
`;
