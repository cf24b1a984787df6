import type { ServerConfiguration } from '../../../../config/server-configuration.schema';
import { afkVerdict } from '../../../results/domain/anti-cheat/afk';
import type { CheckedResult } from '../../../results/domain/anti-cheat/checked-result';

type Figures = Record<string, number | string | boolean>;
import { judgeConsistency } from '../../../results/domain/anti-cheat/judge';
import { holdReasons, type HoldReason } from '../../../results/domain/anti-cheat/review-ceiling';
import { areFunboxesCompatible } from '../../../results/domain/funbox-rules';
import { isTestTooShort, type TooShortInput } from '../../../results/domain/too-short';
import { MIN_ACCURACY, RESULT_MESSAGES } from '../../../results/result-checks';

// Stand-in for results/domain/judge.ts until it lands on main (same names and shapes); replaced by a re-export then.

export type ResultsConfiguration = ServerConfiguration['results'];
export interface Refusal {
  status: 400 | 460 | 461 | 463 | 464 | 465;
  message: string;
  check: string;
  figures: Figures;
}
export type Verdict =
  { outcome: 'refuse'; refusal: Refusal } | { outcome: 'hold'; holds: HoldReason[] } | { outcome: 'accept' };
export interface JudgedResult extends CheckedResult, TooShortInput {
  hash?: string;
}
export interface JudgeFacts {
  optedOut: boolean;
  received?: { body: Record<string, unknown>; uid: string };
}

const MESSAGE_OF: Record<Refusal['status'], string> = {
  400: RESULT_MESSAGES.accuracyTooLow,
  460: RESULT_MESSAGES.tooShort,
  461: RESULT_MESSAGES.hashMismatch,
  463: RESULT_MESSAGES.senseless,
  464: RESULT_MESSAGES.missingKeyData,
  465: RESULT_MESSAGES.bot,
};
const refuse = (status: Refusal['status'], check: string, figures: Figures = {}): Verdict => ({
  outcome: 'refuse',
  refusal: { status, message: MESSAGE_OF[status], check, figures },
});

export function judgeResult(
  result: Readonly<JudgedResult>,
  facts: JudgeFacts,
  config: ResultsConfiguration,
): Verdict {
  if (isTestTooShort(result)) return refuse(460, 'tooShort');
  if (result.acc < MIN_ACCURACY && !facts.optedOut) return refuse(400, 'accuracy', { acc: result.acc });
  if (new Set(result.funbox).size !== result.funbox.length)
    return {
      outcome: 'refuse',
      refusal: { status: 400, message: RESULT_MESSAGES.duplicateFunboxes, check: 'funbox', figures: {} },
    };
  if (!areFunboxesCompatible([...result.funbox]))
    return {
      outcome: 'refuse',
      refusal: { status: 400, message: RESULT_MESSAGES.impossibleFunboxes, check: 'funbox', figures: {} },
    };
  if (afkVerdict(result.afkDuration, result.testDuration) === 'senseless')
    return refuse(463, 'afk', { afkDuration: result.afkDuration, testDuration: result.testDuration });
  const antiCheat = config.antiCheat;
  if (!antiCheat.enabled) return { outcome: 'accept' };
  const finding = judgeConsistency(result, antiCheat);
  if (finding) return refuse(finding.status, finding.check, finding.figures);
  if (!antiCheat.review.enabled) return { outcome: 'accept' };
  const holds = holdReasons(result, antiCheat);
  return holds.length > 0 ? { outcome: 'hold', holds } : { outcome: 'accept' };
}

export function inBotGate(
  result: Pick<JudgedResult, 'mode' | 'wpm' | 'testDuration'>,
  lbOptOut: boolean,
  config: ResultsConfiguration,
): boolean {
  const { minWpm, maxTestDuration } = config.botCheck;
  return result.mode === 'time' && result.wpm > minWpm && result.testDuration < maxTestDuration && !lbOptOut;
}

export function judgeKeyTiming(
  result: Readonly<Pick<JudgedResult, 'mode' | 'wpm' | 'testDuration' | 'keySpacing' | 'keyDuration'>>,
  lbOptOut: boolean,
  config: ResultsConfiguration,
): Verdict {
  if (!inBotGate(result, lbOptOut, config)) return { outcome: 'accept' };
  const { keySpacing, keyDuration } = result;
  if (
    !Array.isArray(keySpacing) ||
    !Array.isArray(keyDuration) ||
    keySpacing.length === 0 ||
    keyDuration.length === 0
  )
    return refuse(464, 'keyData', { wpm: result.wpm });
  return { outcome: 'accept' };
}
