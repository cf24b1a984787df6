import type pg from 'pg';

/**
 * The statement(s) our `GET /leaderboards` runs for one page, once the leaderboard module exists: fill this in with
 * the same SQL (as `submit.ts` mirrors the submission) and the baseline serves scenario 2 too. Until then the baseline
 * answers 404 and the report shows the page read's baseline as not available.
 */
export const LEADERBOARD_PAGE: {
  read(
    pool: pg.Pool,
    query: { language: string; mode: string; mode2: string; page: number; pageSize: number },
  ): Promise<{ entries: unknown[]; count: number }>;
} | null = null;
