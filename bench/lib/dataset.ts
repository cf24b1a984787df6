import { createHash } from 'node:crypto';

/**
 * The shape of the seeded dataset, shared by the seeder, the runner and the baseline, so each can compute a user's id
 * and name from its index instead of reading them back from the database.
 *
 * Users 0 .. users-1 are "full" users: a result history, personal bests derived from it, test activity, stats.
 * Users users .. boardUsers-1 are "board" users: an account with stats and personal bests only, so the all-time
 * boards reach their sizes without seeding tens of millions of results.
 */
export interface DatasetSize {
  users: number;
  resultsPerUser: number;
  boardUsers: number;
}

export const DEFAULT_SIZE: DatasetSize = { users: 100_000, resultsPerUser: 50, boardUsers: 1_000_000 };

/** Real ids are 28-character provider ids; md5 keeps them deterministic (the seeder computes the same in SQL). */
export function uidOf(index: number): string {
  return createHash('md5').update(`bench:${index}`).digest('hex').slice(0, 28);
}

export function nameOf(index: number): string {
  return `typist${index}`;
}

/** The two all-time boards the leaderboard scenarios compare (english time 15 holds every board user). */
export const LARGE_BOARD = { language: 'english', mode: 'time', mode2: '15' } as const;
export const SMALL_BOARD = { language: 'german', mode: 'time', mode2: '15' } as const;

/** Every all-time board exists for each language with these modes (docs/decisions/0020-all-time-leaderboards.md). */
export const BOARD_MODES = [
  { mode: 'time', mode2: '15' },
  { mode: 'time', mode2: '60' },
  { mode: 'words', mode2: '10' },
  { mode: 'words', mode2: '25' },
  { mode: 'words', mode2: '50' },
  { mode: 'words', mode2: '100' },
] as const;

/**
 * Disjoint user ranges per scenario, so one scenario's submissions never trip another's spacing or duplicate checks.
 * Scenario 1 of our server and of the baseline each need as many users as requests (one result per user per run).
 */
export function userRanges(size: DatasetSize, submitRequests: number) {
  const need = 2 * submitRequests + 2_000;
  if (size.users < need) {
    throw new Error(
      `the dataset has ${size.users} full users; ${submitRequests} submissions per server need at least ${need}`,
    );
  }
  const reads = { from: 2 * submitRequests, to: size.users };
  // The top of the read users, taken from the end down, for the scenarios that submit for them: users a minute apart
  // in one run would trip the spacing check (462).
  const below = (to: number, count: number) => ({ from: Math.max(reads.from, to - count), to });
  const freshBests = below(reads.to, 400);
  const openLoop = below(freshBests.from, 16_000);
  const stream = below(openLoop.from, 10_000);
  return {
    submitOurs: { from: 0, to: submitRequests },
    submitBaseline: { from: submitRequests, to: 2 * submitRequests },
    /** Read by every read scenario; scenario 11 and 7a's burst submit for its first users, up to `stream.from`. */
    reads,
    /** Scenario 7a: users whose new personal best is timed to its rank. */
    freshBests,
    /** Scenario 8: one submission per user at the open-loop rate. */
    openLoop,
    /** Scenario 7b: the submissions streamed while the boards are read. */
    stream,
  };
}
