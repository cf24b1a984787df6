import { defaultServerConfiguration } from '../../src/config/server-configuration.schema';
import {
  judgeKeyTiming,
  judgeResult,
  type ResultsConfiguration,
  type Verdict,
} from '../../src/modules/results/domain/judge';
import type { ClientResult } from './result';
import type { Session } from './session';
import type { SessionSpec } from './spec';

/**
 * The anti-cheat's answer to a body the model made: the result judge (with the user on the boards, no hash: the
 * model sends none), then the key timing judge as for a user on the boards (`lbOptOut: false`, so a fast timed test
 * is always judged). What the oracle tests and the corpus script count.
 */
export interface Judgement {
  outcome: 'accept' | 'hold' | 'refuse';
  /** The refusing check, or the holding checks. */
  checks: string[];
  status?: number;
  figures?: Record<string, unknown>;
}

export function judge(
  body: ClientResult,
  config: ResultsConfiguration = defaultServerConfiguration().results,
): Judgement {
  const verdicts: Verdict[] = [judgeResult(body, { optedOut: false }, config)];
  if (verdicts[0]!.outcome !== 'refuse') verdicts.push(judgeKeyTiming(body, false, config));
  const refused = verdicts.find((v) => v.outcome === 'refuse');
  if (refused?.outcome === 'refuse') {
    const { check, status, figures } = refused.refusal;
    return { outcome: 'refuse', checks: [check], status, figures };
  }
  const holds = verdicts.flatMap((v) => (v.outcome === 'hold' ? v.holds : []));
  if (holds.length > 0) {
    return {
      outcome: 'hold',
      checks: holds.map((h) => h.check),
      figures: Object.assign({}, ...holds.map((h) => h.figures)),
    };
  }
  return { outcome: 'accept', checks: [] };
}

/** One line naming a session and the anti-cheat's objection: the check, its figures, and how to replay it. */
export function describeObjection(
  session: Session,
  judgement: Judgement,
  fixed?: Partial<SessionSpec>,
): string {
  const b = session.body!;
  const s = session.spec;
  return (
    `seed ${session.seed}: ${judgement.outcome} ${judgement.status ?? ''} ${judgement.checks.join(',')} ` +
    `${JSON.stringify(judgement.figures ?? {})} | ${b.mode} ${b.mode2} ${b.language} ${s.funbox.join('+') || '-'} ` +
    `${s.profile.device} wpm ${b.wpm} raw ${b.rawWpm} acc ${b.acc} charStats [${b.charStats.join(',')}] ` +
    `charTotal ${b.charTotal} ${b.testDuration}s afk ${b.afkDuration} | replay: playSession(${session.seed}${fixed ? `, ${JSON.stringify(fixed)}` : ''})`
  );
}
