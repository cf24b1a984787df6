import type pg from 'pg';

/**
 * The statement our `GET /leaderboards` runs for one page (src/modules/leaderboards/all-time.repository.ts, `page`),
 * written out by hand: a range read on the snapshot's (board_id, position) index, joined with the users' current
 * names, badges and chat links. The baseline serves it raw: no validation, no configuration, no entry mapping.
 */
const PAGE_SQL = `
  SELECT e.position - b.first_position + 1 AS rank, e.uid, e.wpm, e.acc, e.raw, e.consistency, e.timestamp,
         u.name, u.chat_id, u.chat_avatar, u.premium_expires_at,
         (SELECT (badge->>'id')::int FROM jsonb_array_elements(u.inventory_badges) badge
          WHERE badge->>'selected' = 'true' LIMIT 1) AS badge_id,
         b.size AS board_size
  FROM leaderboard_boards b
  JOIN leaderboard_entries e ON e.board_id = b.id
  JOIN users u ON u.uid = e.uid
  WHERE b.language = $1 AND b.mode = $2 AND b.mode2 = $3 AND NOT u.banned AND NOT u.lb_opt_out
    AND e.position > b.first_position::int8 - 1 + $4::int8
    AND e.position <= b.first_position::int8 - 1 + $5::int8
  ORDER BY e.position`;

export const LEADERBOARD_PAGE = {
  async read(
    pool: pg.Pool,
    query: { language: string; mode: string; mode2: string; page: number; pageSize: number },
  ): Promise<{ entries: unknown[]; count: number }> {
    const first = query.page * query.pageSize;
    const { rows } = await pool.query<{ board_size: number }>({
      name: 'baseline-leaderboard-page',
      text: PAGE_SQL,
      values: [query.language, query.mode, query.mode2, first, first + query.pageSize],
    });
    return { entries: rows, count: rows[0]?.board_size ?? 0 };
  },
};
