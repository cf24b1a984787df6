import type { Int } from '../common/int';
import { s } from './config-schema';

/**
 * `results.antiCheat.*` (docs/decisions/0016-open-anti-cheat.md): the open result checks, each with its switch and
 * thresholds. The tolerances were measured on the original client's genuine results
 * (test/fixtures/original-client-results, `npm run anti-cheat:figures` prints the figures) and given a wide margin;
 * docs/security.md explains each check.
 */
export const ANTI_CHEAT_SCHEMA = s.obj({
  // The open checks below; off leaves only the hash check and the operator's registry (AntiCheatRegistry).
  enabled: s.bool(true),
  // Languages typed through an input method (one key is not one character) or with automatic indentation: the
  // checks that count one key and one insert per character skip them. Full-match regular expressions.
  composedInputLanguages: s.arr(
    s.str('', 100),
    ['korean.*', 'chinese_.*', 'japanese_(hiragana|katakana).*', 'vietnamese.*', 'code_.*'],
    50,
  ),
  // "toolong" in place of the key timings (464) or the chart (463) only on tests of at least toolongMinSeconds, as the
  // client sends it. A result that leaves measurements out is saved but held for review (with `review` on).
  measurements: s.obj({ enabled: s.bool(true), toolongMinSeconds: s.num(120, 0) }),
  // Each check below refuses a contradiction only past `holdMargin` times its tolerance; between its tolerance and
  // that, the result is saved and held for review with the check's figures (the unlikely is held, the impossible
  // refused; docs/anti-cheat.md).
  // wpm and rawWpm against charStats, charTotal and testDuration; charStats against charTotal; words of a word test.
  speed: s.obj({
    enabled: s.bool(true),
    toleranceWpm: s.num(0.5, 0),
    tolerancePercent: s.num(1, 0, 100),
    holdMargin: s.num(2, 1),
  }),
  // acc against charStats and the chart's per-second errors and keypresses.
  accuracy: s.obj({
    enabled: s.bool(true),
    toleranceErrors: s.num(1, 0),
    tolerancePercent: s.num(0.5, 0, 100),
    holdMargin: s.num(2, 1),
  }),
  // The number of key timings against each other and against the characters typed.
  keyCount: s.obj({
    enabled: s.bool(true),
    minKeysPerChar: s.num(0.9, 0),
    maxKeysPerChar: s.num(10, 0),
    toleranceKeys: s.num(5, 0),
    holdMargin: s.num(2, 1),
  }),
  // startToFirstKey + sum(keySpacing) + lastKeyToEnd against testDuration; afkDuration against the pauses.
  timeline: s.obj({
    enabled: s.bool(true),
    toleranceMs: s.num(250, 0),
    tolerancePercent: s.num(1, 0, 100),
    holdMargin: s.num(2, 1),
  }),
  // The chart series against the test's length, wpm, rawWpm, afkDuration and consistency figures.
  chart: s.obj({
    enabled: s.bool(true),
    pointTolerance: s.num(2, 0),
    toleranceWpm: s.num(2, 0),
    tolerancePercent: s.num(2, 0, 100),
    consistencyTolerance: s.num(0.5, 0, 100),
    // The most characters one word can move between the chart's last point and the end of an untimed test.
    longestWordChars: s.num(45, 0),
    holdMargin: s.num(2, 1),
  }),
  // Key timing no human produces (465), judged only inside the `results.botCheck` gate. A figure past its bound by
  // less than `holdMargin` times (the floor divided by it, the ceiling multiplied) holds the result instead.
  bot: s.obj({
    holdMargin: s.num(1.2, 1),
    variation: s.obj({
      enabled: s.bool(true),
      minSpacingCv: s.num(0.12, 0),
      minDurationCv: s.num(0.05, 0),
    }),
    distinct: s.obj({
      enabled: s.bool(true),
      minDistinct: s.int(20, 0),
      minDistinctPercent: s.num(25, 0, 100),
    }),
    periodicity: s.obj({
      enabled: s.bool(true),
      maxRepeatedPercent: s.num(10, 0, 100),
      maxAutocorrelation: s.num(0.8, 0, 1),
    }),
  }),
  // Results faster than these (wpm, per mode), or without the measurements the checks need, are saved but held off
  // every board until a moderator decides.
  review: s.obj({
    enabled: s.bool(true),
    ceilings: s.obj({
      time: s.num(250, 0),
      words: s.num(250, 0),
      quote: s.num(220, 0),
      zen: s.num(250, 0),
      custom: s.num(250, 0),
    }),
  }),
});

export interface AntiCheatConfiguration {
  enabled: boolean;
  composedInputLanguages: string[];
  measurements: { enabled: boolean; toolongMinSeconds: number };
  speed: { enabled: boolean; toleranceWpm: number; tolerancePercent: number; holdMargin: number };
  accuracy: { enabled: boolean; toleranceErrors: number; tolerancePercent: number; holdMargin: number };
  keyCount: {
    enabled: boolean;
    minKeysPerChar: number;
    maxKeysPerChar: number;
    toleranceKeys: number;
    holdMargin: number;
  };
  timeline: { enabled: boolean; toleranceMs: number; tolerancePercent: number; holdMargin: number };
  chart: {
    enabled: boolean;
    pointTolerance: number;
    toleranceWpm: number;
    tolerancePercent: number;
    consistencyTolerance: number;
    longestWordChars: number;
    holdMargin: number;
  };
  bot: {
    holdMargin: number;
    variation: { enabled: boolean; minSpacingCv: number; minDurationCv: number };
    distinct: { enabled: boolean; minDistinct: Int; minDistinctPercent: number };
    periodicity: { enabled: boolean; maxRepeatedPercent: number; maxAutocorrelation: number };
  };
  review: {
    enabled: boolean;
    ceilings: { time: number; words: number; quote: number; zen: number; custom: number };
  };
}
