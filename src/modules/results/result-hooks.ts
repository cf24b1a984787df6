import { Injectable, Logger } from '@nestjs/common';
import type { CompletedResultDto } from './dto/completed-result.dto';

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
  dailyLeaderboardRank?: number;
  weeklyXpLeaderboardRank?: number;
}

export type AfterResultSaved = (event: ResultSavedEvent) => Promise<ResultExtras | void>;

/**
 * The seam for side effects of an accepted result that live outside PostgreSQL (daily boards, weekly XP): features
 * register in `onModuleInit`; hooks run after the transaction committed, must be idempotent, and their failures are
 * logged without failing the submission, which is already saved.
 */
@Injectable()
export class ResultHooks {
  private readonly hooks = new Map<string, AfterResultSaved>();
  private readonly approvalHooks = new Map<string, AfterResultSaved>();
  private readonly logger = new Logger(ResultHooks.name);

  afterResultSaved(feature: string, hook: AfterResultSaved): void {
    this.hooks.set(feature, hook);
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
