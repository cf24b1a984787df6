import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../../common/account-lifecycle';
import { AppError } from '../../../common/app-error';
import { Clock } from '../../../common/clock';
import { ResultHooks, type ResultSavedEvent } from '../result-hooks';
import {
  ResultReviewsRepository,
  type BoardAccount,
  type HeldResult,
  type ReviewDecision,
} from './result-reviews.repository';

export const HELD_NOT_FOUND = 'Held results not found for some IDs';

export interface Decision {
  resultId: string;
  /** Kept with a rejection (moderators' notes; never shown to the user). */
  reason?: string;
}

export interface HeldPage {
  count: number;
  results: HeldResult[];
}

function boardAccount(account: BoardAccount): ResultSavedEvent['account'] {
  const badges = Array.isArray(account.badges)
    ? (account.badges as { id: number; selected?: boolean }[])
    : [];
  return {
    name: account.name,
    banned: account.banned,
    lbOptOut: account.lbOptOut,
    timeTypingBefore: account.timeTyping,
    premiumExpiresAt: account.premiumExpiresAt,
    selectedBadgeId: badges.find((badge) => badge.selected === true)?.id,
    chatId: account.chatId,
    chatAvatar: account.chatAvatar,
    streak: account.streak,
  };
}

/**
 * The review queue's decisions (docs/decisions/0017-review-queue.md), shared by `/admin/result/*` and the CLI.
 * Approving puts a held result on the boards: all-time at the next live update (its personal best is released, or the
 * result is offered as the user's board entry), daily and weekly XP at once when the result's day and week are still
 * kept. Rejecting keeps the result and its personal best, marked, and off every board for good. Each decision is
 * logged with the moderator's uid and stored with the review.
 */
@Injectable()
export class ResultReviewService implements OnModuleInit {
  private readonly logger = new Logger(ResultReviewService.name);

  constructor(
    private readonly reviews: ResultReviewsRepository,
    private readonly hooks: ResultHooks,
    private readonly lifecycle: AccountLifecycle,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.lifecycle.onReset('resultReviews', (uid, trx) => this.reviews.deleteAllOf(uid, trx));
    // A moderator's account goes: the decisions stay with the reviewed users' results, no longer naming them.
    this.lifecycle.onDelete('resultReviews', (uid, trx) => this.reviews.forgetModerator(uid, trx));
  }

  async listHeld(limit: number, offset: number): Promise<HeldPage> {
    const { count, held } = await this.reviews.listHeld(limit, offset);
    return { count, results: held };
  }

  async approve(moderatorUid: string, decisions: Decision[]): Promise<void> {
    const approved = await this.decide(moderatorUid, decisions, 'approved');
    // After the commit, like a submission's: the daily and weekly XP boards (idempotent, failures logged).
    for (const held of approved) {
      const account = await this.reviews.account(held.uid);
      if (!account) continue;
      const r = held.result;
      await this.hooks.runAfterApproval({
        uid: held.uid,
        resultId: held.resultId,
        timestamp: r.timestamp,
        result: r,
        isPb: false,
        held: false,
        xp: r.xp,
        account: boardAccount(account),
      });
    }
  }

  async reject(moderatorUid: string, decisions: Decision[]): Promise<void> {
    await this.decide(moderatorUid, decisions, 'rejected');
  }

  /** One transaction: every result named must still be held, or nothing is decided (404 naming the others). */
  private async decide(
    moderatorUid: string,
    decisions: Decision[],
    decision: ReviewDecision,
  ): Promise<Omit<HeldResult, 'name'>[]> {
    const ids = [...new Set(decisions.map((d) => d.resultId))];
    const reasons = new Map(decisions.map((d) => [d.resultId, d.reason ?? null]));
    const now = this.clock.now();
    const decided = await this.reviews.transaction(async (trx) => {
      const held = await this.reviews.lockHeld(trx, ids);
      if (held.length !== ids.length) {
        const found = new Set(held.map((h) => h.resultId));
        throw new AppError(404, `${HELD_NOT_FOUND} ${ids.filter((id) => !found.has(id)).join(',')}`);
      }
      for (const h of held) {
        await this.reviews.decide(
          trx,
          h.resultId,
          decision,
          moderatorUid,
          now,
          reasons.get(h.resultId) ?? null,
        );
        if (decision === 'rejected') continue;
        // Still the user's best: released, the trigger puts it on the boards. Beaten since: offered as the entry.
        const released = await this.reviews.releasePersonalBest(trx, h.uid, h.resultId);
        if (!released && h.result.pbAllowed) {
          await this.reviews.offerBoardBest(trx, h.uid, h.result, {
            wpm: h.result.wpm,
            acc: h.result.acc,
            raw: h.result.rawWpm,
            consistency: h.result.consistency,
            timestamp: h.result.timestamp,
          });
        }
      }
      return held;
    });
    for (const h of decided) {
      this.logger.log(
        {
          moderatorUid,
          decision,
          resultId: h.resultId,
          uid: h.uid,
          wpm: h.result.wpm,
          mode: h.result.mode,
          mode2: h.result.mode2,
          reason: reasons.get(h.resultId) ?? undefined,
        },
        `held result ${decision}`,
      );
    }
    return decided;
  }
}
