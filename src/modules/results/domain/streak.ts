const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/**
 * Start of the day holding `ts` for a user whose day begins at `hourOffset` o'clock UTC (domain facts §3.1):
 * +10 → days start at 10:00 UTC, -4 → at 20:00 UTC of the previous calendar day.
 */
export function startOfDay(ts: number, hourOffset = 0): number {
  const shifted = ts - hourOffset * HOUR_MS;
  return ts - (((shifted % DAY_MS) + DAY_MS) % DAY_MS);
}

export function isToday(ts: number, now: number, hourOffset = 0): boolean {
  return startOfDay(ts, hourOffset) === startOfDay(now, hourOffset);
}

export function isYesterday(ts: number, now: number, hourOffset = 0): boolean {
  return startOfDay(ts, hourOffset) === startOfDay(now - DAY_MS, hourOffset);
}

export interface StreakState {
  length: number;
  maxLength: number;
  lastResultTimestamp: number | null;
  hourOffset: number | null;
}

export interface StreakUpdate {
  length: number;
  maxLength: number;
  lastResultTimestamp: number;
  /** A streak of at least one day ended (logged by the caller). */
  lost: boolean;
}

/**
 * Spec "Rules for streaks" 1-2 for a completed result at `now`: yesterday → +1, today → unchanged, otherwise the
 * streak restarts at 1. "Unchanged" is literal: setting the hour offset stamps `lastResultTimestamp` with the time it
 * was set, so a first result later that offset day keeps a streak of 0, as on the original
 * (docs/decisions/0029-afk-and-streak-offset.md).
 */
export function nextStreak(state: StreakState, now: number): StreakUpdate {
  const offset = state.hourOffset ?? 0;
  const last = state.lastResultTimestamp;
  let length: number;
  let lost = false;
  if (last !== null && isYesterday(last, now, offset)) length = state.length + 1;
  else if (last !== null && isToday(last, now, offset)) length = state.length;
  else {
    lost = state.length > 0;
    length = 1;
  }
  return { length, maxLength: Math.max(state.maxLength, length), lastResultTimestamp: now, lost };
}
