import type { AntiCheatConfiguration } from '../../../../config/anti-cheat-configuration';
import { excessOf, fig, type Finding } from './checked-result';
import { timingProfile, type TimingProfile } from './timing-profile';

/** Fewer timings than this say too little about who pressed the keys. */
export const MIN_TIMINGS = 20;

/** `excess`: how far past its bound a figure lies, as a ratio (a floor divided by the figure, a figure by its ceiling). */
const bot = (check: string, excess: number, figures: Finding['figures']): Finding => ({
  check,
  status: 465,
  figures,
  excess,
});

const below = (value: number, floor: number) => (value > 0 ? floor / value : Infinity);

type Arrays = { keySpacing: TimingProfile; keyDuration: TimingProfile };

/** Near-constant timing: the spread of human key timing is a large share of its mean. */
function variation(profiles: Arrays, config: AntiCheatConfiguration['bot']['variation']): Finding | null {
  if (!config.enabled) return null;
  const floors = { keySpacing: config.minSpacingCv, keyDuration: config.minDurationCv };
  for (const array of ['keySpacing', 'keyDuration'] as const) {
    const p = profiles[array];
    if (p.count < MIN_TIMINGS) continue;
    // A zero is a key whose release the client never saw; most of them is no timing at all.
    if (p.zeros * 2 > p.count) {
      return bot('variation', below(p.count - p.zeros, p.count / 2), {
        array,
        zeros: p.zeros,
        count: p.count,
      });
    }
    if (p.cv < floors[array]) {
      return bot('variation', below(p.cv, floors[array]), {
        array,
        cv: fig(p.cv),
        minCv: floors[array],
        mean: fig(p.mean),
      });
    }
  }
  return null;
}

/** Too few distinct values (whole milliseconds) for the number of timings. */
function distinct(profiles: Arrays, config: AntiCheatConfiguration['bot']['distinct']): Finding | null {
  if (!config.enabled) return null;
  for (const array of ['keySpacing', 'keyDuration'] as const) {
    const p = profiles[array];
    const timings = p.count - p.zeros;
    if (timings < MIN_TIMINGS) continue;
    const required = Math.min(config.minDistinct, Math.ceil((timings * config.minDistinctPercent) / 100));
    if (p.distinct < required) {
      return bot('distinct', below(p.distinct, required), {
        array,
        distinct: p.distinct,
        required,
        count: timings,
      });
    }
  }
  return null;
}

/** The same run of timings again and again (copied blocks), or a pattern that repeats with a fixed period. */
function periodicity(profiles: Arrays, config: AntiCheatConfiguration['bot']['periodicity']): Finding | null {
  if (!config.enabled) return null;
  for (const array of ['keySpacing', 'keyDuration'] as const) {
    const p = profiles[array];
    if (p.count < MIN_TIMINGS) continue;
    const repeated = excessOf(p.repeatedShare * 100, config.maxRepeatedPercent);
    const autocorrelation = excessOf(p.autocorrelation, config.maxAutocorrelation);
    if (repeated > 1 || autocorrelation > 1) {
      return bot('periodicity', Math.max(repeated, autocorrelation), {
        array,
        repeatedPercent: fig(p.repeatedShare * 100),
        autocorrelation: fig(p.autocorrelation),
      });
    }
  }
  return null;
}

/**
 * Bot timing (465 `Possible bot detected`), judged on the raw arrays rather than their averages. The caller runs it
 * only inside the `results.botCheck` gate (timed tests above `minWpm`, shorter than `maxTestDuration`).
 */
export function findBotTiming(
  keySpacing: readonly number[],
  keyDuration: readonly number[],
  config: AntiCheatConfiguration['bot'],
): Finding | null {
  const profiles = { keySpacing: timingProfile(keySpacing), keyDuration: timingProfile(keyDuration) };
  return (
    variation(profiles, config.variation) ??
    distinct(profiles, config.distinct) ??
    periodicity(profiles, config.periodicity)
  );
}
