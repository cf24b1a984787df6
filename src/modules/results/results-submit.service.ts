import { Injectable, Logger } from '@nestjs/common';
import type { Transaction } from 'kysely';
import { AppError, MESSAGES } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { DB } from '../../infra/database/database.types';
import { InboxService } from '../inbox/inbox.service';
import { XpService } from '../xp/xp.service';
import { keyTimingSummary } from './domain/anti-cheat/key-timing-summary';
import { holdReasons, type HoldReason } from './domain/anti-cheat/review-ceiling';
import { funboxDifficulties, funboxesAllowPb } from './domain/funbox-rules';
import { keyStats, type KeyStats } from './domain/key-stats';
import { canSetPersonalBest, isNewPersonalBest } from './domain/personal-best';
import { nextStreak } from './domain/streak';
import type { CompletedResultDto } from './dto/completed-result.dto';
import { ResultChecks, type CheckContext } from './result-checks';
import { ResultHooks, type ResultExtras, type ResultSavedEvent } from './result-hooks';
import { ResultReviewsRepository } from './review/result-reviews.repository';
import { SubmissionRepository, type LockedAccount, type PbBucket } from './submission.repository';
import type { Int } from '../../common/int';

const DAY_MS = 86_400_000;
export const STREAK_BADGE_ID = 14;
const STREAK_BADGE_DAYS = 365;
const STREAK_BADGE_MAIL = {
  subject: 'Badge',
  body: 'Congratulations for reaching a 365 day streak! You have been awarded a special badge. Now, go touch some grass.',
  rewards: [{ type: 'badge' as const, item: { id: STREAK_BADGE_ID } }],
};

/** `data` of `POST /results` (spec "Result response"; `tagPbs` per docs/decisions/0019-result-submission.md). */
export interface SubmitResponse extends ResultExtras {
  isPb: boolean;
  tagPbs: string[];
  insertedId: string;
  xp: Int;
  dailyXpBonus: boolean;
  xpBreakdown: Record<string, number>;
  streak: Int;
}

interface Stored {
  response: SubmitResponse;
  event: ResultSavedEvent;
}

function correctedEverything(result: CompletedResultDto): boolean {
  if (result.correctedEverything !== undefined) return result.correctedEverything;
  const stats = result.charStats;
  // charStats: correct, incorrect, extra, missed.
  return stats !== undefined && stats[1] === 0 && stats[2] === 0 && stats[3] === 0;
}

/**
 * `POST /results`: the checks, then one PostgreSQL transaction that stores the result with its personal bests, tag
 * bests, typing stats, streak, XP, test activity and the streak badge mail — all of it or none — then the
 * post-commit hooks (leaderboards).
 */
@Injectable()
export class ResultsSubmitService {
  private readonly logger = new Logger(ResultsSubmitService.name);

  constructor(
    private readonly repository: SubmissionRepository,
    private readonly checks: ResultChecks,
    private readonly xp: XpService,
    private readonly inbox: InboxService,
    private readonly hooks: ResultHooks,
    private readonly reviews: ResultReviewsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  /**
   * `outcome` hears a label when the anti-cheat refuses (`463:speed`) or holds (`held:ceiling`) the result, for the
   * `result_submissions_total` counter; the response is the same either way.
   */
  async submit(
    uid: string,
    result: CompletedResultDto,
    received: Record<string, unknown>,
    clientVersion?: string,
    outcome?: (label: string) => void,
  ): Promise<SubmitResponse> {
    const config = await this.configuration.get();
    const context: CheckContext = { uid, clientVersion, outcome };
    await this.checks.beforeTransaction(uid, result, received, config, context);

    // The client's timestamp is only part of the hash; results are stored at server time, in whole seconds.
    const timestamp = Math.floor(this.clock.now() / 1000) * 1000;
    const keys = { spacing: keyStats(result.keySpacing), duration: keyStats(result.keyDuration) };
    const { antiCheat } = config.results;
    const hold = antiCheat.enabled ? holdReasons(result, antiCheat) : [];
    const stored = await this.repository.transaction((trx) =>
      this.store(trx, uid, result, timestamp, keys, config, context, hold),
    );
    if (hold.length > 0) {
      this.logger.warn(
        { uid, resultId: stored.response.insertedId, reasons: hold },
        'result held for review: off the boards until a moderator decides',
      );
      outcome?.(`held:${hold.map((reason) => reason.check).join('+')}`);
    }
    const extras = await this.hooks.runAfterCommit(stored.event);
    return { ...stored.response, ...extras };
  }

  private async store(
    trx: Transaction<DB>,
    uid: string,
    result: CompletedResultDto,
    timestamp: number,
    keys: { spacing: KeyStats | null; duration: KeyStats | null },
    config: ServerConfiguration,
    context: CheckContext,
    hold: HoldReason[],
  ): Promise<Stored> {
    const bucket: PbBucket = {
      mode: result.mode,
      mode2: result.mode2,
      language: result.language,
      difficulty: result.difficulty,
      punctuation: result.punctuation,
      numbers: result.numbers,
      lazyMode: result.lazyMode,
    };
    const tagIds = [...new Set(result.tags)];
    const account = await this.repository.lockAccount(trx, uid, bucket, tagIds);
    if (!account) throw new AppError(404, MESSAGES.userNotFound);

    const hashes = await this.checks.withAccountLocked(
      uid,
      result,
      account,
      timestamp,
      keys,
      config,
      context,
    );

    const pbAllowed = canSetPersonalBest({ ...result, funboxesAllowPb: funboxesAllowPb(result.funbox) });
    const isPb = pbAllowed && isNewPersonalBest(account.pbWpm, result.wpm);
    const tagPbs = pbAllowed
      ? account.ownedTags.filter((tag) => isNewPersonalBest(tag.wpm, result.wpm)).map((tag) => tag.id)
      : [];
    // Tags the user does not own (deleted meanwhile, or someone else's) are not stored with the result.
    const ownedTagIds = new Set(account.ownedTags.map((tag) => tag.id));
    const tags = tagIds.filter((id) => ownedTagIds.has(id));

    const streak = nextStreak(
      {
        length: account.streakLength,
        maxLength: account.streakMaxLength,
        lastResultTimestamp: account.streakLastResultAt,
        hourOffset: account.streakHourOffset,
      },
      timestamp,
    );
    if (streak.lost) this.logger.log({ uid, lostLength: account.streakLength }, 'streak lost');

    // The configuration read before the transaction: a read in here could wait for a pool connection (see XpService).
    const xp = this.xp.forResult(
      {
        mode: result.mode,
        acc: result.acc,
        testDuration: result.testDuration,
        afkDuration: result.afkDuration,
        punctuation: result.punctuation,
        numbers: result.numbers,
        correctedEverything: correctedEverything(result),
        funboxDifficulties: funboxDifficulties(result.funbox),
        incompleteTests: result.incompleteTests,
        incompleteTestSeconds: result.incompleteTestSeconds,
        streak: streak.length,
        lastResultTimestamp: account.lastResultAt,
        currentTotalXp: account.xp,
        now: timestamp,
      },
      config.users.xp,
    );

    const resultId = newId();
    const timeTyped = result.testDuration + result.incompleteTestSeconds - result.afkDuration;
    const held = hold.length > 0;
    const pbRecord = {
      wpm: result.wpm,
      acc: result.acc,
      raw: result.rawWpm,
      consistency: result.consistency,
      timestamp,
    };
    await this.repository.applySubmission(trx, {
      uid,
      result: this.resultRow(uid, resultId, result, timestamp, account, tags, isPb, keys, xp.xp),
      bucket,
      pbRecord,
      heldResultId: held ? resultId : null,
      isPb,
      tagPbIds: tagPbs,
      account: {
        restartCount: result.restartCount,
        timeTyped,
        xp: xp.xp,
        streakLength: streak.length,
        streakMaxLength: streak.maxLength,
        timestamp,
        lastResultHashes: hashes,
      },
      activityDay: Math.floor(timestamp / DAY_MS),
    });

    await this.grantStreakBadge(trx, uid, streak.length, account);
    const timeTypingAfter = account.timeTyping + timeTyped;
    await this.hooks.runWithinSubmission(
      { uid, timeTypingBefore: account.timeTyping, timeTypingAfter },
      trx,
      config,
    );

    if (held) {
      await this.reviews.hold(trx, {
        resultId,
        uid,
        heldAt: timestamp,
        reasons: hold,
        keyTiming: keyTimingSummary(result),
        result: {
          ...bucket,
          mode: result.mode,
          funbox: result.funbox,
          bailedOut: result.bailedOut,
          stopOnLetter: result.stopOnLetter,
          wpm: result.wpm,
          rawWpm: result.rawWpm,
          acc: result.acc,
          consistency: result.consistency,
          testDuration: result.testDuration,
          afkDuration: result.afkDuration,
          incompleteTestSeconds: result.incompleteTestSeconds,
          timestamp,
          xp: xp.xp,
          pbAllowed,
        },
      });
    } else if (account.pbHeld && pbAllowed && !isPb) {
      // The best of this bucket is held off the boards: this lower result may be the user's entry there.
      await this.reviews.offerBoardBest(trx, uid, bucket, pbRecord);
    }

    if (isPb) {
      this.logger.log(
        { uid, resultId, mode: result.mode, mode2: result.mode2, wpm: result.wpm, acc: result.acc },
        'new personal best',
      );
    }
    return {
      response: {
        isPb,
        tagPbs,
        insertedId: resultId,
        xp: xp.xp,
        dailyXpBonus: xp.dailyBonus,
        xpBreakdown: xp.breakdown,
        streak: streak.length,
      },
      event: {
        uid,
        resultId,
        timestamp,
        result,
        isPb,
        held,
        xp: xp.xp,
        account: {
          name: account.name,
          banned: account.banned,
          lbOptOut: account.lbOptOut,
          timeTypingBefore: account.timeTyping,
          premiumExpiresAt: account.premiumExpiresAt,
          selectedBadgeId: account.badges.find((badge) => badge.selected === true)?.id,
          chatId: account.chatId,
          chatAvatar: account.chatAvatar,
          streak: streak.length,
        },
      },
    };
  }

  /** Spec streak rule 6: a 365-day streak earns badge 14 by mail, once (not owned, no such mail waiting). */
  private async grantStreakBadge(
    trx: Transaction<DB>,
    uid: string,
    streak: number,
    account: LockedAccount,
  ): Promise<void> {
    if (streak < STREAK_BADGE_DAYS) return;
    if (account.badges.some((badge) => badge.id === STREAK_BADGE_ID)) return;
    if (await this.repository.hasUnreadBadgeMail(trx, uid, STREAK_BADGE_ID)) return;
    await this.inbox.send(uid, STREAK_BADGE_MAIL, trx);
    this.logger.log({ uid, streak }, 'streak badge mailed');
  }

  private resultRow(
    uid: string,
    id: string,
    result: CompletedResultDto,
    timestamp: number,
    account: LockedAccount,
    tags: string[],
    isPb: boolean,
    keys: { spacing: KeyStats | null; duration: KeyStats | null },
    xp: number,
  ) {
    return {
      id,
      uid,
      timestamp,
      name: account.name,
      wpm: result.wpm,
      raw_wpm: result.rawWpm,
      acc: result.acc,
      consistency: result.consistency,
      key_consistency: result.keyConsistency ?? null,
      char_stats: result.charStats ?? null,
      mode: result.mode,
      mode2: result.mode2,
      quote_length: result.quoteLength ?? null,
      language: result.language,
      difficulty: result.difficulty,
      punctuation: result.punctuation,
      numbers: result.numbers,
      lazy_mode: result.lazyMode,
      blind_mode: result.blindMode,
      bailed_out: result.bailedOut,
      funbox: result.funbox,
      tags,
      test_duration: result.testDuration,
      afk_duration: result.afkDuration,
      incomplete_test_seconds: result.incompleteTestSeconds,
      restart_count: result.restartCount,
      is_pb: isPb,
      chart_data: result.chartData === undefined ? null : JSON.stringify(result.chartData),
      key_spacing_stats: keys.spacing ? JSON.stringify(keys.spacing) : null,
      key_duration_stats: keys.duration ? JSON.stringify(keys.duration) : null,
      // Board facts: the daily and weekly XP boards are rebuilt from these after a Redis outage.
      xp,
      stop_on_letter: result.stopOnLetter,
    };
  }
}
