import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { AntiCheatRegistry, type AntiCheatContext } from './anti-cheat';
import { afkVerdict } from './domain/anti-cheat/afk';
import { findBotTiming } from './domain/anti-cheat/bot-checks';
import type { Finding } from './domain/anti-cheat/checked-result';
import { judgeConsistency } from './domain/anti-cheat/judge';
import { areFunboxesCompatible } from './domain/funbox-rules';
import { resultHash } from './domain/result-hash';
import type { KeyStats } from './domain/key-stats';
import { isTestTooShort } from './domain/too-short';
import type { CompletedResultDto } from './dto/completed-result.dto';
import type { LockedAccount } from './submission.repository';
import { SubmissionRepository } from './submission.repository';

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

/** Below this accuracy a result is refused unless the user opted out of leaderboards (domain facts §1.2 step 5). */
export const MIN_ACCURACY = 75;

const REFUSALS = {
  463: RESULT_MESSAGES.senseless,
  464: RESULT_MESSAGES.missingKeyData,
  465: RESULT_MESSAGES.bot,
} as const;

/** The anti-cheat's view of a submission, plus where its outcome is reported (`result_submissions_total`). */
export interface CheckContext extends AntiCheatContext {
  /** Labels the submission's outcome when a check refuses or holds it, e.g. `463:speed`, `held:ceiling`. */
  outcome?: (label: string) => void;
}

/**
 * The checks of `POST /results`, in this order (the original platform's, domain facts §1.2):
 * before the transaction — too short (460), accuracy (400), hash (461), funboxes (400), afk (463), the open
 * consistency checks (463, or 464 for missing key timings; domain/anti-cheat) and the operator's registry (463);
 * inside it, with the user row locked — spacing (462), and in the `results.botCheck` gate key data (464), the open
 * bot timing checks and the registry's (465); then duplicate (466). A refused result changes nothing; every
 * anti-cheat refusal is logged with its check and figures and counted by check.
 */
@Injectable()
export class ResultChecks {
  private readonly logger = new Logger(ResultChecks.name);

  constructor(
    private readonly repository: SubmissionRepository,
    private readonly antiCheat: AntiCheatRegistry,
  ) {}

  async beforeTransaction(
    uid: string,
    result: CompletedResultDto,
    received: Record<string, unknown>,
    config: ServerConfiguration,
    context: CheckContext,
  ): Promise<void> {
    if (isTestTooShort(result)) throw new AppError(460, RESULT_MESSAGES.tooShort);

    // Opted-out users may keep low-accuracy results; the lookup is only paid for such results.
    if (result.acc < MIN_ACCURACY && !(await this.repository.isOptedOut(uid))) {
      throw new AppError(400, RESULT_MESSAGES.accuracyTooLow);
    }

    if (config.results.objectHashCheckEnabled) {
      // The client hashes the result exactly as it sends it, with its uid and without the hash itself.
      const { hash: _hash, ...rest } = received;
      const serverHash = resultHash({ ...rest, uid });
      if (serverHash !== result.hash) {
        this.logger.warn({ uid, serverHash, resultHash: result.hash }, 'incorrect result hash');
        throw new AppError(461, RESULT_MESSAGES.hashMismatch);
      }
    }

    if (new Set(result.funbox).size !== result.funbox.length) {
      throw new AppError(400, RESULT_MESSAGES.duplicateFunboxes);
    }
    if (!areFunboxesCompatible(result.funbox)) throw new AppError(400, RESULT_MESSAGES.impossibleFunboxes);

    // More time away than the test lasted cannot happen, and would make typing time and XP negative. The client
    // rounds both separately (120.12 vs 120.11), so an excess under a second is that noise: clamped
    // (docs/decisions/0029-afk-and-streak-offset.md).
    const afk = afkVerdict(result.afkDuration, result.testDuration);
    if (afk === 'senseless') {
      this.refuse(uid, context, {
        check: 'afk',
        status: 463,
        figures: { afkDuration: result.afkDuration, testDuration: result.testDuration },
      });
    }
    if (afk === 'clamp') result.afkDuration = result.testDuration;

    const finding = judgeConsistency(result, config.results.antiCheat);
    if (finding) this.refuse(uid, context, finding);
    if (!(await this.antiCheat.current.validateResult(result, this.registryContext(context)))) {
      this.refuse(uid, context, { check: 'registry', status: 463, figures: {} });
    }
  }

  /** Returns the new list of remembered hashes (null when the duplicate check is off). */
  async withAccountLocked(
    uid: string,
    result: CompletedResultDto,
    account: LockedAccount,
    timestamp: number,
    keys: { spacing: KeyStats | null; duration: KeyStats | null },
    config: ServerConfiguration,
    context: CheckContext,
  ): Promise<string[] | null> {
    if (account.lastResultAt !== null) {
      const earliest =
        account.lastResultAt + result.testDuration * 1000 + result.incompleteTestSeconds * 1000;
      // One second of slack for the server timestamp being cut to whole seconds.
      if (timestamp < earliest - 1000) {
        this.logger.warn({ uid, lastResultAt: account.lastResultAt, timestamp }, 'invalid result spacing');
        throw new AppError(462, RESULT_MESSAGES.spacing);
      }
    }

    const { minWpm, maxTestDuration } = config.results.botCheck;
    if (
      result.mode === 'time' &&
      result.wpm > minWpm &&
      result.testDuration < maxTestDuration &&
      !account.lbOptOut
    ) {
      if (!keys.spacing || !keys.duration) {
        this.refuse(uid, context, { check: 'keyData', status: 464, figures: { wpm: result.wpm } });
      }
      const { antiCheat } = config.results;
      if (antiCheat.enabled && Array.isArray(result.keySpacing) && Array.isArray(result.keyDuration)) {
        const finding = findBotTiming(result.keySpacing, result.keyDuration, antiCheat.bot);
        if (finding) this.refuse(uid, context, finding);
      }
      const human = await this.antiCheat.current.validateKeys(
        result,
        { spacing: keys.spacing, duration: keys.duration },
        this.registryContext(context),
      );
      if (!human) this.refuse(uid, context, { check: 'registry', status: 465, figures: { wpm: result.wpm } });
    }

    const { enabled, maxHashes } = config.users.lastHashesCheck;
    if (!enabled) return null;
    if (account.lastResultHashes.includes(result.hash)) {
      this.logger.warn({ uid, hash: result.hash }, 'duplicate result');
      throw new AppError(466, RESULT_MESSAGES.duplicate);
    }
    return [result.hash, ...account.lastResultHashes].slice(0, maxHashes);
  }

  /** The operator's rules see the submission, not our bookkeeping. */
  private registryContext(context: CheckContext): AntiCheatContext {
    return { uid: context.uid, clientVersion: context.clientVersion };
  }

  private refuse(uid: string, context: CheckContext, finding: Finding): never {
    this.logger.warn(
      { uid, check: finding.check, status: finding.status, figures: finding.figures },
      'result refused by anti-cheat',
    );
    context.outcome?.(`${finding.status}:${finding.check}`);
    throw new AppError(finding.status, REFUSALS[finding.status], {
      check: finding.check,
      ...finding.figures,
    });
  }
}
