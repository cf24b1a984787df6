import { fig, type CheckedResult } from './checked-result';
import { timingProfile } from './timing-profile';

export interface TimingArraySummary {
  count: number;
  zeros: number;
  meanMs: number;
  sdMs: number;
  cv: number;
  distinct: number;
  repeatedPercent: number;
  autocorrelation: number;
}

/** What a moderator sees of a held result's key timing: the figures the bot checks judge, per array. */
export interface KeyTimingSummary {
  keySpacing: TimingArraySummary | null;
  keyDuration: TimingArraySummary | null;
  /** startToFirstKey + Σ keySpacing + lastKeyToEnd, against the test's duration. */
  timelineMs: number | null;
  testDurationMs: number;
}

function summary(values: readonly number[] | 'toolong' | undefined): TimingArraySummary | null {
  if (!Array.isArray(values) || values.length === 0) return null;
  const p = timingProfile(values);
  return {
    count: p.count,
    zeros: p.zeros,
    meanMs: fig(p.mean),
    sdMs: fig(p.sd),
    cv: fig(p.cv),
    distinct: p.distinct,
    repeatedPercent: fig(p.repeatedShare * 100),
    autocorrelation: fig(p.autocorrelation),
  };
}

export function keyTimingSummary(result: Readonly<CheckedResult>): KeyTimingSummary {
  const keySpacing = summary(result.keySpacing);
  const spacingSum = Array.isArray(result.keySpacing) ? result.keySpacing.reduce((a, b) => a + b, 0) : null;
  return {
    keySpacing,
    keyDuration: summary(result.keyDuration),
    timelineMs:
      spacingSum === null
        ? null
        : fig((result.startToFirstKey ?? 0) + spacingSum + (result.lastKeyToEnd ?? 0)),
    testDurationMs: fig(result.testDuration * 1000),
  };
}
