import { LARGE_BOARD, SMALL_BOARD } from '../lib/dataset';
import type { ServerProcess } from '../lib/server-process';
import {
  cycle,
  measured,
  notAvailable,
  probe,
  warmTokens,
  type BenchContext,
  type ScenarioRow,
  type ServerKind,
} from './context';
import { Random } from './result-body';
import { seedWeeklyBoards } from '../seed/weekly';

type Board = typeof LARGE_BOARD | typeof SMALL_BOARD;

const PAGE_SIZE = 50;
/** Users per board whose own rank scenario 3 asks for. */
const RANKED_USERS = 1_000;

/** This week's board (`weeksBefore=0`) holds 10,000 entries, last week's 1,000,000 (written before scenario 3). */
const WEEKLY_SIZES = [
  { label: '10k', weeksBefore: 0, entries: 10_000 },
  { label: '1M', weeksBefore: 1, entries: 1_000_000 },
] as const;

export const BOARDS: { label: string; board: Board }[] = [
  { label: '10k', board: SMALL_BOARD },
  { label: '1M', board: LARGE_BOARD },
];

export function boardQuery(board: Board): string {
  return `language=${board.language}&mode=${board.mode}&mode2=${board.mode2}`;
}

/** The entry count a board reports, or null when the route does not exist on this build (404). */
export async function boardCount(server: ServerProcess, path: string): Promise<number | null> {
  const { status, body } = await probe(server, path);
  if (status === 404) return null;
  const count = (body as { data?: { count?: unknown } }).data?.count;
  if (status !== 200 || typeof count !== 'number') {
    throw new Error(`GET ${path} answered ${status}: ${JSON.stringify(body).slice(0, 300)}`);
  }
  return count;
}

/** Random pages over the whole board: deep pages cost what the first ones cost when ranks are precomputed. */
export function randomPages(path: (page: number) => string, count: number, seed: number) {
  const rng = new Random(seed);
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));
  return () => ({ method: 'GET' as const, path: path(rng.int(0, pages - 1)) });
}

/** Scenario 2: `GET /leaderboards` pages of the 10,000- and the 1,000,000-entry board. */
export async function leaderboardPageScenario(
  context: BenchContext,
  kind: ServerKind,
): Promise<ScenarioRow[]> {
  const server = context.servers[kind];
  const rows: ScenarioRow[] = [];
  for (const { label, board } of BOARDS) {
    const id = `2-${label}`;
    const scenario = `GET /leaderboards page, ${label} board`;
    const page = (n: number) => `/leaderboards?${boardQuery(board)}&page=${n}&pageSize=${PAGE_SIZE}`;
    const count = await boardCount(server, page(0));
    if (count === null) {
      rows.push(notAvailable(id, scenario, kind, 'not available: GET /leaderboards answers 404'));
      continue;
    }
    context.log(`scenario 2 (${kind}): ${label} board, ${count} entries ...`);
    const result = await measured(context, server, {
      next: randomPages(page, count, 2),
      ...(kind === 'ours' ? { profile: id } : {}),
    });
    rows.push({ id, scenario, server: kind, result, note: `${count} entries` });
  }
  return rows;
}

/** Eligible users with a personal best on the board (so each has a rank), sampled at random. */
export async function rankedUsers(context: BenchContext, board: Board): Promise<string[]> {
  const { rows } = await context.pool.query<{ uid: string }>(
    `SELECT pb.uid FROM personal_bests AS pb JOIN users AS u ON u.uid = pb.uid
     WHERE pb.language = $1 AND pb.mode = $2 AND pb.mode2 = $3 AND pb.difficulty = 'normal'
       AND NOT pb.punctuation AND NOT pb.numbers AND NOT pb.lazy_mode
       AND NOT u.banned AND NOT u.lb_opt_out AND u.time_typing > 7200
     ORDER BY random() LIMIT $4`,
    [board.language, board.mode, board.mode2, RANKED_USERS],
  );
  return rows.map((r) => r.uid);
}

/** Scenario 3: `GET /leaderboards/rank` on both boards, and `GET /leaderboards/xp/weekly` pages. */
export async function leaderboardRankScenario(context: BenchContext): Promise<ScenarioRow[]> {
  const server = context.servers.ours;
  const rows: ScenarioRow[] = [];
  for (const { label, board } of BOARDS) {
    const id = `3-rank-${label}`;
    const scenario = `GET /leaderboards/rank, ${label} board`;
    const path = `/leaderboards/rank?${boardQuery(board)}`;
    const uids = await rankedUsers(context, board);
    const tokens = uids.map((uid) => context.issuer.token(uid));
    const first = await probe(server, path, { authorization: `Bearer ${tokens[0] ?? ''}` });
    if (
      first.status === 404 &&
      (first.body as { message?: string }).message?.startsWith('Unknown request URL')
    ) {
      rows.push(notAvailable(id, scenario, 'ours', 'not available: GET /leaderboards/rank answers 404'));
      continue;
    }
    await warmTokens(context, server, tokens);
    context.log(`scenario 3: rank on the ${label} board ...`);
    const nextToken = cycle(tokens);
    const result = await measured(context, server, {
      next: () => ({ method: 'GET', path, headers: { authorization: `Bearer ${nextToken()}` } }),
      profile: id,
    });
    rows.push({ id, scenario, server: 'ours', result });
  }

  const seconds = await seedWeeklyBoards(context.redisUrl, {
    thisWeek: WEEKLY_SIZES[0].entries,
    lastWeek: WEEKLY_SIZES[1].entries,
  });
  context.log(`scenario 3: weekly XP boards written in ${seconds.toFixed(1)} s`);
  for (const { label, weeksBefore } of WEEKLY_SIZES) {
    const id = `3-weekly-${label}`;
    const scenario = `GET /leaderboards/xp/weekly page, ${label} board`;
    const weekly = (n: number) =>
      `/leaderboards/xp/weekly?weeksBefore=${weeksBefore}&page=${n}&pageSize=${PAGE_SIZE}`;
    const count = await boardCount(server, weekly(0));
    if (count === null) {
      rows.push(notAvailable(id, scenario, 'ours', 'not available: answers 404'));
      continue;
    }
    context.log(`scenario 3: weekly XP board, ${count} entries ...`);
    const result = await measured(context, server, { next: randomPages(weekly, count, 3), profile: id });
    rows.push({ id, scenario, server: 'ours', result, note: `${count} entries` });
  }
  return rows;
}
