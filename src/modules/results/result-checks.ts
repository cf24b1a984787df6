import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { AntiCheatRegistry, type AntiCheatContext } from './anti-cheat';
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

/** How far `afkDuration` may exceed `testDuration` and still count as the client's rounding (then clamped). */
export const AFK_ROUNDING_SLACK_SECONDS = 1;

/** Below this accuracy a result is refused unless the user opted out of leaderboards (domain facts §1.2 step 5). */
export const MIN_ACCURACY = 75;

/**
 * The checks of `POST /results`, in this order (the original platform's, domain facts §1.2):
 * before the transaction — too short (460), accuracy (400), hash (461), funboxes (400), data sense / anti-cheat (463);
 * inside it, with the user row locked — spacing (462), key data and bot check (464/465), duplicate (466).
 * A refused result changes nothing.
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
    context: AntiCheatContext,
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
    // rounds both separately (120.12 vs 120.11), so an excess under a second is that noise: clamped (DECISIONS.md).
    if (result.afkDuration > result.testDuration) {
      if (result.afkDuration - result.testDuration >= AFK_ROUNDING_SLACK_SECONDS) {
        throw new AppError(463, RESULT_MESSAGES.senseless);
      }
      result.afkDuration = result.testDuration;
    }
    if (!(await this.antiCheat.current.validateResult(result, context))) {
      this.logger.warn({ uid }, 'result refused by anti-cheat');
      throw new AppError(463, RESULT_MESSAGES.senseless);
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
    context: AntiCheatContext,
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
      if (!keys.spacing || !keys.duration) throw new AppError(464, RESULT_MESSAGES.missingKeyData);
      const human = await this.antiCheat.current.validateKeys(
        result,
        { spacing: keys.spacing, duration: keys.duration },
        context,
      );
      if (!human) {
        this.logger.warn({ uid, wpm: result.wpm }, 'possible bot detected');
        throw new AppError(465, RESULT_MESSAGES.bot);
      }
    }

    const { enabled, maxHashes } = config.users.lastHashesCheck;
    if (!enabled) return null;
    if (account.lastResultHashes.includes(result.hash)) {
      this.logger.warn({ uid, hash: result.hash }, 'duplicate result');
      throw new AppError(466, RESULT_MESSAGES.duplicate);
    }
    return [result.hash, ...account.lastResultHashes].slice(0, maxHashes);
  }
}
