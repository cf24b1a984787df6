import type { AntiCheatConfiguration } from '../../../../config/anti-cheat-configuration';

/** Why a saved result waits for a moderator before it reaches any board. */
export interface HoldReason {
  check: string;
  figures: Record<string, number | string>;
}

/**
 * The plausibility ceiling: a result that passed every check but is faster than the configured ceiling of its mode
 * is saved (personal best, XP, stats) and held off the boards until a moderator approves it. The defaults sit at
 * the fastest typing publicly recorded (a 300 wpm 15-second test, 231 wpm kept up for an hour, 212 wpm the Guinness
 * peak), so only a world-class result or a forgery gets there, and a person tells which.
 */
export function holdReasons(
  result: { mode: string; wpm: number },
  config: AntiCheatConfiguration['review'],
): HoldReason[] {
  if (!config.enabled) return [];
  const ceiling = (config.ceilings as Record<string, number | undefined>)[result.mode];
  if (ceiling === undefined || result.wpm <= ceiling) return [];
  return [{ check: 'ceiling', figures: { mode: result.mode, wpm: result.wpm, ceiling } }];
}
