import type { ServerConfiguration } from '../../config/server-configuration.schema';

export type XpConfig = ServerConfiguration['users']['xp'];

const DAY_MS = 86_400_000;

/** Everything XP depends on; plain numbers so the rules stay a pure function. */
export interface XpInput {
  mode: string;
  acc: number;
  testDuration: number;
  afkDuration: number;
  punctuation: boolean;
  numbers: boolean;
  /** Every mistake was corrected (sent by the client, or derived from `charStats`). */
  correctedEverything: boolean;
  /** `difficultyLevel` of each funbox used. */
  funboxDifficulties: number[];
  incompleteTests: { acc: number; seconds: number }[];
  incompleteTestSeconds: number;
  /** The streak length after this result. */
  streak: number;
  /** Time of the user's last stored result before this one, if any. */
  lastResultTimestamp: number | null;
  /** The user's XP total before this result. */
  currentTotalXp: number;
  now: number;
}

/** Spec "Rules for XP" rule 7: the only keys a breakdown can have. */
export type XpBreakdownKey =
  | 'base'
  | 'fullAccuracy'
  | 'corrected'
  | 'quote'
  | 'punctuation'
  | 'numbers'
  | 'funbox'
  | 'streak'
  | 'incomplete'
  | 'accPenalty'
  | 'daily'
  | 'configMultiplier';

export interface XpOutcome {
  xp: number;
  dailyBonus: boolean;
  breakdown: Partial<Record<XpBreakdownKey, number>>;
}

/** Linear map of `value` from `[inMin, inMax]` to `[outMin, outMax]`, clamped to the output range. */
export function mapRangeClamped(
  value: number,
  inMin: number,
  inMax: number,
  outMin: number,
  outMax: number,
): number {
  if (inMin === inMax) return outMin;
  const mapped = outMin + ((value - inMin) * (outMax - outMin)) / (inMax - inMin);
  const low = Math.min(outMin, outMax);
  const high = Math.max(outMin, outMax);
  return Math.min(high, Math.max(low, mapped));
}

/** Rule 2, streak bonus: streak days mapped onto 0..maxStreakMultiplier, clamped, one decimal. */
export function streakMultiplier(streak: number, config: XpConfig['streak']): number {
  if (!config.enabled || config.maxStreakDays <= 0) return 0;
  const mapped = mapRangeClamped(streak, 0, config.maxStreakDays, 0, config.maxStreakMultiplier);
  return parseFloat(mapped.toFixed(1));
}

function utcDayStart(ts: number): number {
  return ts - (((ts % DAY_MS) + DAY_MS) % DAY_MS);
}

/**
 * Spec "Rules for XP" 1-7, with the original platform's details where the spec is silent (domain facts §2): the
 * modifier starts at 1, incomplete seconds without per-test data count in full, `accPenalty` is always listed, the
 * daily bonus compares UTC days of the last stored result, and `configMultiplier` holds the multiplier itself.
 */
export function calculateXp(input: XpInput, config: XpConfig): XpOutcome {
  if (!config.enabled || input.mode === 'zen' || input.acc < 50)
    return { xp: 0, dailyBonus: false, breakdown: {} };

  const breakdown: XpOutcome['breakdown'] = {};
  const base = Math.round((input.testDuration - input.afkDuration) * 2);
  breakdown.base = base;

  let modifier = 1;
  const bonus = (key: XpBreakdownKey, amount: number) => {
    modifier += amount;
    breakdown[key] = Math.round(base * amount);
  };

  if (input.acc === 100) bonus('fullAccuracy', 0.5);
  else if (input.correctedEverything) bonus('corrected', 0.25);

  if (input.mode === 'quote') bonus('quote', 0.5);
  else {
    if (input.punctuation) bonus('punctuation', 0.4);
    if (input.numbers) bonus('numbers', 0.1);
  }

  if (config.funboxBonus > 0 && input.funboxDifficulties.length > 0) {
    const funbox = input.funboxDifficulties.reduce(
      (sum, level) => sum + Math.max(level * config.funboxBonus, 0),
      0,
    );
    if (funbox > 0) bonus('funbox', funbox);
  }

  const streak = streakMultiplier(input.streak, config.streak);
  if (streak > 0) bonus('streak', streak);

  let incompleteXp = 0;
  if (input.incompleteTests.length > 0) {
    incompleteXp = input.incompleteTests.reduce(
      (sum, test) => sum + Math.round(test.seconds * Math.max((test.acc - 50) / 50, 0)),
      0,
    );
    breakdown.incomplete = incompleteXp;
  } else if (input.incompleteTestSeconds > 0) {
    // Older clients report only the seconds; the original platform credits them in full.
    incompleteXp = Math.round(input.incompleteTestSeconds);
    breakdown.incomplete = incompleteXp;
  }

  const xpWithModifiers = Math.round(base * modifier);
  const xpAfterAccuracy = Math.round(xpWithModifiers * ((input.acc - 50) / 50));
  breakdown.accPenalty = xpWithModifiers - xpAfterAccuracy;

  let dailyBonus = 0;
  const last = input.lastResultTimestamp;
  if (last !== null && Number.isFinite(last) && utcDayStart(last) < utcDayStart(input.now)) {
    const proposed = Math.round(input.currentTotalXp * 0.05);
    dailyBonus = Math.max(Math.min(config.maxDailyBonus, proposed), config.minDailyBonus);
    breakdown.daily = dailyBonus;
  }

  const xp = Math.round((xpAfterAccuracy + incompleteXp) * config.gainMultiplier) + dailyBonus;
  if (config.gainMultiplier !== 1) breakdown.configMultiplier = config.gainMultiplier;

  return { xp, dailyBonus: dailyBonus > 0, breakdown };
}
