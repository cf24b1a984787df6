import type { ServerConfiguration } from '../../../config/server-configuration.schema';
import { afkVerdict } from './anti-cheat/afk';
import { findBotTiming } from './anti-cheat/bot-checks';
import type { CheckedResult, Figures, Finding } from './anti-cheat/checked-result';
import { judgeConsistency } from './anti-cheat/consistency';
import { holdReasons, type HoldReason } from './anti-cheat/review-ceiling';
import { areFunboxesCompatible } from './funbox-rules';
import { resultHash } from './result-hash';
import { isTestTooShort, type TooShortInput } from './too-short';

/** The spec's texts of every refusal of `POST /results`. */
export const RESULT_MESSAGES = {
  tooShort: 'Test is too short',
  accuracyTooLow: 'Accuracy too low',
  hashMismatch: 'Incorrect result hash',
  duplicateFunboxes: 'Duplicate funboxes',
  impossibleFunboxes: 'Impossible funbox combination',
  senseless: "Result data doesn't make sense",
  spacing: 'Invalid result spacing',
  missingKeyData: 'Missing key data',
  bot: 'Possible bot detected',
  duplicate: 'Duplicate result',
} as const;

/** Below this accuracy a result is refused unless the user opted out of leaderboards (the original's rule). */
export const MIN_ACCURACY = 75;

export type ResultsConfiguration = ServerConfiguration['results'];

/** Why a result is refused: the status and text it is answered with, the check and the figures it judged. */
export interface Refusal {
  status: 400 | 460 | 461 | 463 | 464 | 465;
  message: string;
  check: string;
  figures: Figures;
}

/**
 * What the judge says of a result: refused (nothing is saved; an anti-cheat refusal is quarantined), held (saved with
 * its personal bests, XP and stats, kept off every board until a moderator decides), or accepted.
 */
export type Verdict =
  { outcome: 'refuse'; refusal: Refusal } | { outcome: 'hold'; holds: HoldReason[] } | { outcome: 'accept' };

/** The result fields the judge reads (the CompletedResultDto satisfies it). */
export interface JudgedResult extends CheckedResult, TooShortInput {
  hash?: string;
}

export interface JudgeFacts {
  /** The user opted out of the leaderboards (may keep results under MIN_ACCURACY); read only when it matters. */
  optedOut: boolean;
  /** The result exactly as received and the caller's uid: the client's hash covers both. None for imports. */
  received?: { body: Record<string, unknown>; uid: string };
}

const ACCEPT: Verdict = { outcome: 'accept' };

const FUNBOX_REFUSAL = { status: 400, check: 'funbox', figures: {} } as const;

const refuse = (status: Refusal['status'], check: string, figures: Figures = {}): Verdict => ({
  outcome: 'refuse',
  refusal: { status, message: MESSAGE_OF[status], check, figures },
});

const MESSAGE_OF: Record<Refusal['status'], string> = {
  400: RESULT_MESSAGES.accuracyTooLow,
  460: RESULT_MESSAGES.tooShort,
  461: RESULT_MESSAGES.hashMismatch,
  463: RESULT_MESSAGES.senseless,
  464: RESULT_MESSAGES.missingKeyData,
  465: RESULT_MESSAGES.bot,
};

/** Holds findings within their check's margin; returns the first one past it as a refusal. */
function weigh(findings: Finding[], margin: (check: string) => number, holds: HoldReason[]): Verdict | null {
  for (const finding of findings) {
    if (finding.holdOnly || finding.excess <= margin(finding.check)) {
      holds.push({ check: finding.check, figures: finding.figures });
    } else {
      return refuse(finding.status, finding.check, finding.figures);
    }
  }
  return null;
}

function consistencyMargin(config: ResultsConfiguration['antiCheat']): (check: string) => number {
  return (check) => {
    const group = (config as unknown as Record<string, { holdMargin?: number } | undefined>)[check];
    return group?.holdMargin ?? 1;
  };
}

/**
 * The checks of a submitted result that need nothing but the result (and two facts about its account), in the
 * original platform's order: too short (460), accuracy (400), hash (461), funboxes (400), time away (463), then the
 * open consistency checks (463, or 464 for "toolong" key timings on a short test), each refusing past its hold margin
 * and holding within it, then the holds of review-ceiling.ts. Pure: the live route and the importers judge alike.
 */
export function judgeResult(
  result: Readonly<JudgedResult>,
  facts: JudgeFacts,
  config: ResultsConfiguration,
): Verdict {
  if (isTestTooShort(result)) return refuse(460, 'tooShort');
  if (result.acc < MIN_ACCURACY && !facts.optedOut) return refuse(400, 'accuracy', { acc: result.acc });
  if (config.objectHashCheckEnabled && facts.received) {
    // The client hashes the result exactly as it sends it, with its uid and without the hash itself.
    const { hash: _hash, ...rest } = facts.received.body;
    if (resultHash({ ...rest, uid: facts.received.uid }) !== result.hash) return refuse(461, 'hash');
  }
  if (new Set(result.funbox).size !== result.funbox.length) {
    return { outcome: 'refuse', refusal: { ...FUNBOX_REFUSAL, message: RESULT_MESSAGES.duplicateFunboxes } };
  }
  if (!areFunboxesCompatible([...result.funbox])) {
    return { outcome: 'refuse', refusal: { ...FUNBOX_REFUSAL, message: RESULT_MESSAGES.impossibleFunboxes } };
  }
  // More time away than the test lasted, by a second or more, cannot happen (less is the client's rounding).
  if (afkVerdict(result.afkDuration, result.testDuration) === 'senseless') {
    return refuse(463, 'afk', { afkDuration: result.afkDuration, testDuration: result.testDuration });
  }

  const antiCheat = config.antiCheat;
  if (!antiCheat.enabled) return ACCEPT;
  const holds: HoldReason[] = [];
  const refused = weigh(judgeConsistency(result, antiCheat), consistencyMargin(antiCheat), holds);
  if (refused) return refused;
  // With review off nobody would ever decide on a held result: what would be held is accepted.
  if (!antiCheat.review.enabled) return ACCEPT;
  holds.push(...holdReasons(result, antiCheat));
  return holds.length > 0 ? { outcome: 'hold', holds } : ACCEPT;
}

/** Whether a result falls in the `results.botCheck` gate: a fast timed test, from a user on the boards. */
export function inBotGate(
  result: Pick<JudgedResult, 'mode' | 'wpm' | 'testDuration'>,
  lbOptOut: boolean,
  config: ResultsConfiguration,
): boolean {
  const { minWpm, maxTestDuration } = config.botCheck;
  return result.mode === 'time' && result.wpm > minWpm && result.testDuration < maxTestDuration && !lbOptOut;
}

/**
 * The key timing checks of a fast timed test (inside the `results.botCheck` gate): missing key data (464), then the
 * open bot timing checks (465), held within `bot.holdMargin` and refused past it. Judged where the account is known
 * (the gate skips users off the boards).
 */
export function judgeKeyTiming(
  result: Readonly<Pick<JudgedResult, 'mode' | 'wpm' | 'testDuration' | 'keySpacing' | 'keyDuration'>>,
  lbOptOut: boolean,
  config: ResultsConfiguration,
): Verdict {
  if (!inBotGate(result, lbOptOut, config)) return ACCEPT;
  const { keySpacing, keyDuration } = result;
  if (
    !Array.isArray(keySpacing) ||
    !Array.isArray(keyDuration) ||
    keySpacing.length === 0 ||
    keyDuration.length === 0
  ) {
    return refuse(464, 'keyData', { wpm: result.wpm });
  }
  const { antiCheat } = config;
  if (!antiCheat.enabled) return ACCEPT;
  const finding = findBotTiming(keySpacing, keyDuration, antiCheat.bot);
  if (!finding) return ACCEPT;
  const holds: HoldReason[] = [];
  const refused = weigh([finding], () => antiCheat.bot.holdMargin, holds);
  if (refused) return refused;
  return antiCheat.review.enabled ? { outcome: 'hold', holds } : ACCEPT;
}
