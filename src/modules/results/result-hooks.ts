import { Injectable, Logger } from '@nestjs/common';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import type { Executor } from '../../infra/database/transaction';
import type { CompletedResultDto } from './dto/completed-result.dto';
import type { Int } from '../../common/int';

/** The fields of a result the boards read (a held result keeps these for its approval). */
export type BoardResult = Pick<
  CompletedResultDto,
  | 'language'
  | 'mode'
  | 'mode2'
  | 'funbox'
  | 'bailedOut'
  | 'stopOnLetter'
  | 'wpm'
  | 'rawWpm'
  | 'acc'
  | 'consistency'
  | 'testDuration'
  | 'incompleteTestSeconds'
  | 'afkDuration'
>;

/** What a post-commit step learns about an accepted result. */
export interface ResultSavedEvent {
  uid: string;
  resultId: string;
  /** Server time the result was stored with. */
  timestamp: number;
  result: Readonly<BoardResult>;
  isPb: boolean;
  /** Held for review (above its mode's ceiling): saved, but kept off every board until a moderator approves it. */
  held: boolean;
  /** XP this result earned. */
  xp: number;
  /** The user as it was before this result (eligibility uses `timeTyping` before it, as the original). */
  account: {
    name: string;
    banned: boolean;
    lbOptOut: boolean;
    timeTypingBefore: number;
    premiumExpiresAt: number | null;
    selectedBadgeId?: number;
    chatId: string | null;
    chatAvatar: string | null;
    streak: number;
  };
}

/** Fields a post-commit step may add to the `POST /results` response. */
export interface ResultExtras {
  dailyLeaderboardRank?: Int;
  weeklyXpLeaderboardRank?: Int;
}

export type AfterResultSaved = (event: ResultSavedEvent) => Promise<ResultExtras | void>;

/** What a step inside the submission's transaction learns: the user's time typed (seconds) before and after it. */
export interface TimeTypedChange {
  uid: string;
  timeTypingBefore: number;
  timeTypingAfter: number;
}

export type WithinSubmission = (
  change: TimeTypedChange,
  trx: Executor,
  config: ServerConfiguration,
) => Promise<void>;

/**
 * The seam for side effects of an accepted result that live outside PostgreSQL (daily boards, weekly XP): features
 * register in `onModuleInit`; hooks run after the transaction committed, must be idempotent, and their failures are
 * logged without failing the submission, which is already saved. `withinSubmission` steps run inside the
 * submission's transaction instead (the leaderboards queue a user who just became eligible): they commit with it or
 * fail it; they get the configuration the submission read, so they never wait for a second pool connection.
 */
@Injectable()
export class ResultHooks {
  private readonly hooks = new Map<string, AfterResultSaved>();
  private readonly within = new Map<string, WithinSubmission>();
  private readonly approvalHooks = new Map<string, AfterResultSaved>();
  private readonly logger = new Logger(ResultHooks.name);

  afterResultSaved(feature: string, hook: AfterResultSaved): void {
    this.hooks.set(feature, hook);
  }

  withinSubmission(feature: string, step: WithinSubmission): void {
    this.within.set(feature, step);
  }

  async runWithinSubmission(
    change: TimeTypedChange,
    trx: Executor,
    config: ServerConfiguration,
  ): Promise<void> {
    for (const step of this.within.values()) await step(change, trx, config);
  }

  /** A held result a moderator approved (after that decision committed): it may now enter the boards. */
  afterResultApproved(feature: string, hook: AfterResultSaved): void {
    this.approvalHooks.set(feature, hook);
  }

  runAfterCommit(event: ResultSavedEvent): Promise<ResultExtras> {
    return this.run(this.hooks, event);
  }

  runAfterApproval(event: ResultSavedEvent): Promise<ResultExtras> {
    return this.run(this.approvalHooks, event);
  }

  private async run(hooks: Map<string, AfterResultSaved>, event: ResultSavedEvent): Promise<ResultExtras> {
    let extras: ResultExtras = {};
    for (const [feature, hook] of hooks) {
      try {
        extras = { ...extras, ...((await hook(event)) ?? {}) };
      } catch (e) {
        this.logger.error(
          { uid: event.uid, resultId: event.resultId, feature, err: (e as Error).message },
          'after-result hook failed',
        );
      }
    }
    return extras;
  }
}
