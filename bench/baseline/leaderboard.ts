import type pg from 'pg';

/**
 * The statement our `GET /leaderboards` runs for one page (src/modules/leaderboards/all-time.repository.ts,
 * `pageStatement`), written out by hand: the last rank mark at or before the page's offset, then the rest of the
 * offset and the page on the snapshot's order index, joined with the users' current names, badges and chat links.
 * The baseline serves it raw: no validation, no configuration, no entry mapping.
 */
const PAGE_SQL = `
  SELECT x.rank, x.uid, x.wpm, x.acc, x.raw, x.consistency, x.timestamp,
         u.name, u.chat_id, u.chat_avatar, u.premium_expires_at,
         (SELECT (badge->>'id')::int FROM jsonb_array_elements(u.inventory_badges) badge
          WHERE badge->>'selected' = 'true' LIMIT 1) AS badge_id,
         b.size AS board_size
  FROM leaderboard_boards b
  CROSS JOIN LATERAL (
    SELECT m.nwpm, m.nacc, m.timestamp, m.uid, m.ahead FROM leaderboard_rank_marks m
    WHERE m.board_id = b.id AND m.ahead <= $4::int
    ORDER BY m.ahead DESC
    LIMIT 1
  ) m
  CROSS JOIN LATERAL (
    SELECT ($4::int8 + row_number() OVER (ORDER BY s.nwpm, s.nacc, s.timestamp, s.uid))::int AS rank, s.*
    FROM (
      SELECT -e.wpm AS nwpm, -e.acc AS nacc, e.uid, e.wpm, e.acc, e.raw, e.consistency, e.timestamp
      FROM leaderboard_entries e
      WHERE e.board_id = b.id AND (-e.wpm, -e.acc, e.timestamp, e.uid) >= (m.nwpm, m.nacc, m.timestamp, m.uid)
      ORDER BY -e.wpm, -e.acc, e.timestamp, e.uid
      OFFSET $4::int8 - m.ahead LIMIT $5::int8
    ) s
  ) x
  JOIN users u ON u.uid = x.uid
  WHERE b.language = $1 AND b.mode = $2 AND b.mode2 = $3 AND NOT u.banned AND NOT u.lb_opt_out
  ORDER BY x.rank`;

export const LEADERBOARD_PAGE = {
  async read(
    pool: pg.Pool,
    query: { language: string; mode: string; mode2: string; page: number; pageSize: number },
  ): Promise<{ entries: unknown[]; count: number }> {
    const first = query.page * query.pageSize;
    const { rows } = await pool.query<{ board_size: number }>({
      name: 'baseline-leaderboard-page',
      text: PAGE_SQL,
      values: [query.language, query.mode, query.mode2, first, query.pageSize],
    });
    return { entries: rows, count: rows[0]?.board_size ?? 0 };
  },
};
