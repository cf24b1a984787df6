import { LANGUAGES } from '../../common/languages';
import type { ModeRule, RewardBracket } from '../../config/server-configuration.schema';

export const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** Spec "Leaderboards": the boards that exist, for every language. */
export const LEADERBOARD_MODES = {
  time: ['15', '60'],
  words: ['10', '25', '50', '100'],
} as const satisfies Record<string, readonly string[]>;
export type LeaderboardMode = keyof typeof LEADERBOARD_MODES;

export function isLeaderboardMode(mode: unknown): mode is LeaderboardMode {
  return typeof mode === 'string' && Object.hasOwn(LEADERBOARD_MODES, mode);
}

export function isLeaderboardMode2(mode: LeaderboardMode, mode2: unknown): boolean {
  return (LEADERBOARD_MODES[mode] as readonly string[]).includes(mode2 as string);
}

/** Every (mode, mode2) pair a board exists for. */
export const LEADERBOARD_MODE_PAIRS: { mode: LeaderboardMode; mode2: string }[] = Object.entries(
  LEADERBOARD_MODES,
).flatMap(([mode, mode2s]) => mode2s.map((mode2) => ({ mode: mode as LeaderboardMode, mode2 })));

export interface BoardKey {
  language: string;
  mode: string;
  mode2: string;
}

/** A rule field is a regular expression matched against the whole value (as the original platform's rules). */
function fullMatch(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(value);
  } catch {
    // A malformed pattern in the configuration matches nothing rather than failing every result.
    return false;
  }
}

export function matchesModeRules(rules: readonly ModeRule[], board: BoardKey): boolean {
  return rules.some(
    (rule) =>
      fullMatch(rule.language, board.language) &&
      fullMatch(rule.mode, board.mode) &&
      fullMatch(rule.mode2, board.mode2),
  );
}

/** The boards of every language that a list of mode rules enables. */
export function enabledBoards(rules: readonly ModeRule[]): BoardKey[] {
  if (rules.length === 0) return [];
  return LANGUAGES.flatMap((language) =>
    LEADERBOARD_MODE_PAIRS.map(({ mode, mode2 }) => ({ language, mode, mode2 })),
  ).filter((board) => matchesModeRules(rules, board));
}

export function utcDayStart(timestamp: number): number {
  return Math.floor(timestamp / DAY_MS) * DAY_MS;
}

/** ISO weeks start on Monday 00:00 UTC (the epoch was a Thursday; 1970-01-05 a Monday). */
export function isoWeekStart(timestamp: number): number {
  const mondayOffset = 4 * DAY_MS;
  return Math.floor((timestamp - mondayOffset) / WEEK_MS) * WEEK_MS + mondayOffset;
}

export function previousWeekStart(timestamp: number): number {
  return isoWeekStart(timestamp) - WEEK_MS;
}

/** `2026-11-22` for a UTC day start. */
export function isoDate(dayStart: number): string {
  return new Date(dayStart).toISOString().slice(0, 10);
}

/**
 * The daily-board score: higher wpm first, then higher accuracy, then the result submitted earlier in the UTC day.
 * Packed into one integer below 2^53 (wpm and acc to two decimals, seconds left in the day), so a sorted set orders
 * it and `ZADD GT` keeps only improvements.
 */
export function dailyScore(wpm: number, acc: number, timestamp: number): number {
  const w = Math.round(wpm * 100);
  const a = Math.round(acc * 100);
  const secondsLeft = Math.floor((DAY_MS - (timestamp - utcDayStart(timestamp))) / 1000);
  return ((100_000 + w) * 100_000 + a) * 100_000 + secondsLeft;
}

/** The wpm packed into a daily score. */
export function wpmOfDailyScore(score: number): number {
  return (Math.floor(score / 1e10) - 100_000) / 100;
}

function mapRange(value: number, inMin: number, inMax: number, outMin: number, outMax: number): number {
  if (inMin === inMax) return outMin;
  const mapped = ((value - inMin) * (outMax - outMin)) / (inMax - inMin) + outMin;
  return Math.min(Math.max(mapped, Math.min(outMin, outMax)), Math.max(outMin, outMax));
}

/**
 * XP reward of a final rank: among the brackets containing the rank, linear from `maxReward` at `minRank` to
 * `minReward` at `maxRank`; the largest wins. Null when no bracket contains the rank.
 */
export function bracketReward(rank: number, brackets: readonly RewardBracket[]): number | null {
  let best: number | null = null;
  for (const b of brackets) {
    if (rank < b.minRank || rank > b.maxRank) continue;
    const reward = Math.round(mapRange(rank, b.minRank, b.maxRank, b.maxReward, b.minReward));
    if (best === null || reward > best) best = reward;
  }
  return best;
}

/** The deepest rank any bracket pays. */
export function deepestRewardedRank(brackets: readonly RewardBracket[]): number {
  return brackets.reduce((deepest, b) => Math.max(deepest, b.maxRank), 0);
}

export function ordinal(n: number): string {
  const lastTwo = n % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}

const MONTH_SECONDS = 30.4167 * 86_400;
const UNITS: [name: string, seconds: number, below: number][] = [
  ['second', 1, 60],
  ['minute', 60, 3600],
  ['hour', 3600, 86_400],
  ['day', 86_400, 7 * 86_400],
  ['week', 7 * 86_400, 28 * 86_400],
  ['month', MONTH_SECONDS, 12 * MONTH_SECONDS],
  ['year', 12 * MONTH_SECONDS, Infinity],
];

/** `90` → `1.5 minutes`: the largest fitting unit, two decimals at most, plural above one. */
export function formatDuration(seconds: number): string {
  const [name, size] = UNITS.find(([, , below]) => seconds < below) ?? UNITS[UNITS.length - 1]!;
  const value = Math.round((seconds / size) * 100) / 100;
  return `${value} ${name}${value > 1 ? 's' : ''}`;
}

export interface EligibilityFacts {
  banned: boolean;
  lbOptOut: boolean;
  timeTyping: number;
}

/**
 * Spec "Rules for leaderboards and eligibility": not banned, not opted out, total typing time above
 * `minTimeTyping`; `minTimeTyping` null skips the time check (development environment).
 */
export function isEligible(user: EligibilityFacts, minTimeTyping: number | null): boolean {
  if (user.banned || user.lbOptOut) return false;
  return minTimeTyping === null || user.timeTyping > minTimeTyping;
}

/**
 * Whether a result that took the user's time typed from `before` to `after` (seconds) made them eligible by time: the
 * all-time boards then take their personal bests at the next live update (it need not be a new best).
 */
export function crossesMinTimeTyping(before: number, after: number, minTimeTyping: number | null): boolean {
  return minTimeTyping !== null && before <= minTimeTyping && after > minTimeTyping;
}
