import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { AntiCheatRegistry, type AntiCheatContext } from './anti-cheat';
import { judgeResult, MIN_ACCURACY, RESULT_MESSAGES, type Refusal, type Verdict } from './domain/judge';
import { normaliseResult } from './domain/normalise';
import type { CompletedResultDto } from './dto/completed-result.dto';
import { SubmissionOutcomesService } from './outcomes/submission-outcomes.service';
import { isQuarantined, QuarantineService } from './quarantine/quarantine.service';
import { ResultHooks } from './result-hooks';
import { SubmissionRepository } from './submission.repository';
import {
  RefusedInTransaction,
  SubmissionTransaction,
  type StoredSubmission,
  type SubmitResponse,
} from './submission-transaction';

export type { SubmitResponse } from './submission-transaction';

/** One submission as the route hands it over. */
export interface Submission {
  uid: string;
  /** Step 1, parse: the body validated by SubmitResultPipe (dto/submit-result.pipe.ts; 422 when it fails). */
  result: CompletedResultDto;
  /** The `result` object exactly as received: the client's hash covers it, and the quarantine keeps it. */
  received: Record<string, unknown>;
  clientVersion?: string;
  /** Hears the outcome label (`463:speed`, `held:ceiling`) for `result_submissions_total`. */
  outcome?: (label: string) => void;
}

/**
 * `POST /results`, every step in order (docs/architecture.md "A submission's path"):
 * 1. parse — SubmitResultPipe, before this service: the body's schema (422).
 * 2. normalise — normaliseResult (domain/normalise.ts): the client's rounding of afk, repeated tags.
 * 3. judge — judgeResult (domain/judge.ts), pure: one verdict, refuse (460/400/461/463/464), hold or accept, with its
 *    findings; then the operator's result rules (anti-cheat.ts, 463). A refusal saves nothing; an anti-cheat refusal
 *    is quarantined (quarantine/), never lost.
 * 4. the account's transaction — SubmissionTransaction (submission-transaction.ts): spacing (462), key timing
 *    (464/465), duplicates (466), then the write of everything the result changes, a hold included; all or nothing.
 * 5. post-commit hooks — ResultHooks (result-hooks.ts): the daily and weekly boards, idempotent, never failing the
 *    submission.
 * Every judged submission's outcome is counted per check (outcomes/, the refusal rates an operator watches).
 */
@Injectable()
export class ResultsSubmitService {
  private readonly logger = new Logger(ResultsSubmitService.name);

  constructor(
    private readonly configuration: ServerConfigurationService,
    private readonly repository: SubmissionRepository,
    private readonly registry: AntiCheatRegistry,
    private readonly transaction: SubmissionTransaction,
    private readonly hooks: ResultHooks,
    private readonly quarantine: QuarantineService,
    private readonly outcomes: SubmissionOutcomesService,
    private readonly clock: Clock,
  ) {}

  async submit(submission: Submission): Promise<SubmitResponse> {
    const config = await this.configuration.get();
    const result = normaliseResult(submission.result);
    const verdict = await this.judge(submission, result, config);
    if (verdict.outcome === 'refuse') return this.refuse(submission, verdict.refusal);
    await this.applyOperatorRules(submission, result);
    const stored = await this.runTransaction(submission, result, verdict, config);
    this.report(submission, stored);
    const extras = await this.hooks.runAfterCommit(stored.event);
    return { ...stored.response, ...extras };
  }

  /** Step 3: the pure judge, given the one fact about the account it may need (read only for a low accuracy). */
  private async judge(
    submission: Submission,
    result: CompletedResultDto,
    config: ServerConfiguration,
  ): Promise<Verdict> {
    const optedOut = result.acc < MIN_ACCURACY && (await this.repository.isOptedOut(submission.uid));
    return judgeResult(
      result,
      { optedOut, received: { body: submission.received, uid: submission.uid } },
      config.results,
    );
  }

  /** Step 3, continued: an operator's private rules (the registry), after the open checks passed. */
  private async applyOperatorRules(submission: Submission, result: CompletedResultDto): Promise<void> {
    if (!(await this.registry.current.validateResult(result, this.registryContext(submission)))) {
      await this.refuse(submission, {
        status: 463,
        message: RESULT_MESSAGES.senseless,
        check: 'registry',
        figures: {},
      });
    }
  }

  /** Step 4, whose own refusals (key timing) are refused like the judge's once the transaction rolled back. */
  private async runTransaction(
    submission: Submission,
    result: CompletedResultDto,
    verdict: Verdict,
    config: ServerConfiguration,
  ): Promise<StoredSubmission> {
    try {
      return await this.transaction.run({
        uid: submission.uid,
        result,
        holds: verdict.outcome === 'hold' ? verdict.holds : [],
        // The client's timestamp is only part of the hash; results are stored at server time, in whole seconds.
        timestamp: Math.floor(this.clock.now() / 1000) * 1000,
        config,
        registry: this.registryContext(submission),
      });
    } catch (e) {
      if (e instanceof RefusedInTransaction) return this.refuse(submission, e.refusal);
      if (e instanceof AppError) this.outcomes.record(String(e.status));
      throw e;
    }
  }

  /** A refusal: logged with its check and figures, counted, quarantined when the anti-cheat made it, answered. */
  private async refuse(submission: Submission, refusal: Refusal): Promise<never> {
    const label = `${refusal.status}:${refusal.check}`;
    this.outcomes.record(label);
    if (isQuarantined(refusal)) {
      this.logger.warn(
        { uid: submission.uid, check: refusal.check, status: refusal.status, figures: refusal.figures },
        'result refused by anti-cheat',
      );
      submission.outcome?.(label);
      await this.quarantine.keep(submission.uid, refusal, submission.received, submission.clientVersion);
    }
    throw new AppError(refusal.status, refusal.message, { check: refusal.check, ...refusal.figures });
  }

  private report(submission: Submission, stored: StoredSubmission): void {
    if (stored.holds.length === 0) {
      this.outcomes.record('accepted');
      return;
    }
    const label = `held:${stored.holds.map((hold) => hold.check).join('+')}`;
    this.outcomes.record(label);
    submission.outcome?.(label);
    this.logger.warn(
      { uid: submission.uid, resultId: stored.response.insertedId, reasons: stored.holds },
      'result held for review: off the boards until a moderator decides',
    );
  }

  /** The operator's rules see the submission, not our bookkeeping. */
  private registryContext(submission: Submission): AntiCheatContext {
    return { uid: submission.uid, clientVersion: submission.clientVersion };
  }
}
