import type { Int } from '../../common/int';

export const DAY_MS = 86_400_000;
/** Spec "Limits": the current test activity covers the last 372 days (today included). */
export const CURRENT_ACTIVITY_DAYS = 372;

/** Days are UTC calendar days counted from the epoch, as `test_activity.day` stores them. */
export function utcDay(ms: number): number {
  return Math.floor(ms / DAY_MS);
}

export interface DayCount {
  day: number;
  tests: number;
}

export interface CurrentTestActivity {
  /** Completed tests per day, oldest first; the last entry is `lastDay`. */
  testsByDays: Int[];
  /** Start (UTC midnight, ms) of the last day covered: today. */
  lastDay: Int;
}

/**
 * The 372-day window ending today. Built from day numbers, so it runs across New Year (and leap days) without any
 * per-year bookkeeping; days without tests are 0.
 */
export function currentTestActivity(rows: DayCount[], nowMs: number): CurrentTestActivity {
  const today = utcDay(nowMs);
  const first = today - CURRENT_ACTIVITY_DAYS + 1;
  const testsByDays = new Array<number>(CURRENT_ACTIVITY_DAYS).fill(0);
  for (const { day, tests } of rows) {
    if (day >= first && day <= today) testsByDays[day - first] = tests;
  }
  return { testsByDays, lastDay: today * DAY_MS };
}

/**
 * Premium view (spec "Other resources"): one array per calendar year, index = day of the year - 1, up to the year's
 * last day with tests; days without tests are 0.
 */
export function testActivityByYear(rows: DayCount[]): Record<string, number[]> {
  const years: Record<string, number[]> = {};
  for (const { day, tests } of [...rows].sort((a, b) => a.day - b.day)) {
    const year = new Date(day * DAY_MS).getUTCFullYear();
    const index = day - utcDay(Date.UTC(year, 0, 1));
    const counts = (years[String(year)] ??= []);
    while (counts.length < index) counts.push(0);
    counts[index] = tests;
  }
  return years;
}
