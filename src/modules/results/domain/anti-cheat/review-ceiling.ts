import type { AntiCheatConfiguration } from '../../../../config/anti-cheat-configuration';
import type { CheckedResult, Figures } from './checked-result';

/** Why a saved result waits for a moderator before it reaches any board. */
export interface HoldReason {
  check: string;
  figures: Figures;
}

/** The client's measurements the consistency checks judge a result by, in the order they are named. */
const MEASURED = ['charStats', 'charTotal', 'chartData', 'keySpacing', 'keyDuration'] as const;

/** The measurements a result leaves out (absent, or an empty timing array; "toolong" is the client's own value). */
export function missingMeasurements(result: Pick<CheckedResult, (typeof MEASURED)[number]>): string[] {
  return MEASURED.filter((field) => {
    const value = result[field];
    return value === undefined || (Array.isArray(value) && value.length === 0);
  });
}

/**
 * Why a result that passed every check is saved (personal best, XP, stats) but held off the boards until a moderator
 * decides:
 * - `ceiling`: faster than the configured ceiling of its mode. The defaults sit at the fastest typing publicly
 *   recorded (a 300 wpm 15-second test, 231 wpm kept up for an hour, 212 wpm the Guinness peak), so only a
 *   world-class result or a forgery gets there, and a person tells which;
 * - `measurements`: it leaves out measurements the consistency checks need (a client sending only the spec's
 *   required fields). Such a result is valid, so it is saved, but nothing vouches for it on a board.
 */
export function holdReasons(
  result: Pick<CheckedResult, 'mode' | 'wpm' | (typeof MEASURED)[number]>,
  config: Pick<AntiCheatConfiguration, 'review' | 'measurements'>,
): HoldReason[] {
  if (!config.review.enabled) return [];
  const reasons: HoldReason[] = [];
  const ceiling = (config.review.ceilings as Record<string, number | undefined>)[result.mode];
  if (ceiling !== undefined && result.wpm > ceiling) {
    reasons.push({ check: 'ceiling', figures: { mode: result.mode, wpm: result.wpm, ceiling } });
  }
  if (config.measurements.enabled) {
    const missing = missingMeasurements(result);
    if (missing.length > 0) reasons.push({ check: 'measurements', figures: { missing: missing.join(',') } });
  }
  return reasons;
}
