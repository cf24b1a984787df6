import { Injectable, Logger } from '@nestjs/common';
import type { Transaction } from 'kysely';
import { AppError, MESSAGES } from '../../common/app-error';
import type { Int } from '../../common/int';
import { newId } from '../../common/ids';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import type { DB } from '../../infra/database/database.types';
import { InboxService } from '../inbox/inbox.service';
import { XpService } from '../xp/xp.service';
import { AntiCheatRegistry, type AntiCheatContext } from './anti-cheat';
import { keyTimingSummary } from './domain/anti-cheat/key-timing-summary';
import type { HoldReason } from './domain/anti-cheat/review-ceiling';
import { funboxDifficulties, funboxesAllowPb } from './domain/funbox-rules';
import { inBotGate, judgeKeyTiming, RESULT_MESSAGES, type Refusal } from './domain/judge';
import type { KeyStats } from './domain/key-stats';
import { keyTimingStats, storedResultColumns } from './domain/stored-result';
import { canSetPersonalBest, isNewPersonalBest } from './domain/personal-best';
import { nextStreak } from './domain/streak';
import type { CompletedResultDto } from './dto/completed-result.dto';
import type { ResultExtras, ResultSavedEvent } from './result-hooks';
import { ResultHooks } from './result-hooks';
import { ResultReviewsRepository } from './review/result-reviews.repository';
import {
  SubmissionRepository,
  type LockedAccount,
  type NewResultRow,
  type PbBucket,
} from './submission.repository';

const DAY_MS = 86_400_000;
export const STREAK_BADGE_ID = 14;
const STREAK_BADGE_DAYS = 365;
const STREAK_BADGE_MAIL = {
  subject: 'Badge',
  body: 'Congratulations for reaching a 365 day streak! You have been awarded a special badge. Now, go touch some grass.',
  rewards: [{ type: 'badge' as const, item: { id: STREAK_BADGE_ID } }],
};

/** `data` of `POST /results` (spec "Result response"; `tagPbs` as the original client reads it). */
export interface SubmitResponse extends ResultExtras {
  isPb: boolean;
  tagPbs: string[];
  insertedId: string;
  xp: Int;
  dailyXpBonus: boolean;
  xpBreakdown: Record<string, number>;
  streak: Int;
}

export interface StoredSubmission {
  response: SubmitResponse;
  event: ResultSavedEvent;
  /** Why the result is held off the boards (none: it is not). */
  holds: HoldReason[];
}

/** A refusal found inside the transaction (key timing): the transaction rolls back, the caller quarantines it. */
export class RefusedInTransaction extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

export interface TransactionInput {
  uid: string;
  result: CompletedResultDto;
  /** Holds the judge found before the transaction. */
  holds: HoldReason[];
  /** Server time, whole seconds: the result's timestamp. */
  timestamp: number;
  config: ServerConfiguration;
  registry: AntiCheatContext;
}

/** The JSON columns as the write statement binds them (text; PostgreSQL casts it). */
function jsonColumns(row: ReturnType<typeof storedResultColumns>): NewResultRow {
  return {
    ...row,
    name: row.name as string,
    chart_data: row.chart_data === null ? null : JSON.stringify(row.chart_data),
    key_spacing_stats: row.key_spacing_stats ? JSON.stringify(row.key_spacing_stats) : null,
    key_duration_stats: row.key_duration_stats ? JSON.stringify(row.key_duration_stats) : null,
  };
}

function correctedEverything(result: CompletedResultDto): boolean {
  if (result.correctedEverything !== undefined) return result.correctedEverything;
  const stats = result.charStats;
  // charStats: correct, incorrect, extra, missed.
  return stats !== undefined && stats[1] === 0 && stats[2] === 0 && stats[3] === 0;
}

/**
 * Step 4 of `POST /results`, the account's transaction. The user row is locked first, so one user's submissions run one
 * after another while different users never wait on each other; then the checks that need the account — spacing
 * (462), key timing (464/465, with the operator's key rules) and duplicates (466) — and the write of the result with
 * its personal bests, tag bests, typing stats, streak, XP, test activity, the streak badge mail and the review hold:
 * all of it or none.
 */
@Injectable()
export class SubmissionTransaction {
  private readonly logger = new Logger(SubmissionTransaction.name);

  constructor(
    private readonly repository: SubmissionRepository,
    private readonly registry: AntiCheatRegistry,
    private readonly xp: XpService,
    private readonly inbox: InboxService,
    private readonly hooks: ResultHooks,
    private readonly reviews: ResultReviewsRepository,
  ) {}

  run(input: TransactionInput): Promise<StoredSubmission> {
    return this.repository.transaction((trx) => this.store(trx, input));
  }

  private async store(trx: Transaction<DB>, input: TransactionInput): Promise<StoredSubmission> {
    const { uid, result, timestamp, config } = input;
    const bucket: PbBucket = {
      mode: result.mode,
      mode2: result.mode2,
      language: result.language,
      difficulty: result.difficulty,
      punctuation: result.punctuation,
      numbers: result.numbers,
      lazyMode: result.lazyMode,
    };
    const account = await this.repository.lockAccount(trx, uid, bucket, result.tags);
    if (!account) throw new AppError(404, MESSAGES.userNotFound);

    this.checkSpacing(uid, result, account, timestamp);
    const keys = keyTimingStats(result);
    const holds = [...input.holds, ...(await this.judgeKeys(result, account, keys, config, input.registry))];
    const hashes = this.rememberHash(uid, result, account, config);

    const pbAllowed = canSetPersonalBest({ ...result, funboxesAllowPb: funboxesAllowPb(result.funbox) });
    const isPb = pbAllowed && isNewPersonalBest(account.pbWpm, result.wpm);
    const tagPbs = pbAllowed
      ? account.ownedTags.filter((tag) => isNewPersonalBest(tag.wpm, result.wpm)).map((tag) => tag.id)
      : [];
    // Tags the user does not own (deleted meanwhile, or someone else's) are not stored with the result.
    const ownedTagIds = new Set(account.ownedTags.map((tag) => tag.id));
    const tags = result.tags.filter((id) => ownedTagIds.has(id));

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
    const held = holds.length > 0;
    const pbRecord = {
      wpm: result.wpm,
      acc: result.acc,
      raw: result.rawWpm,
      consistency: result.consistency,
      timestamp,
    };
    await this.repository.applySubmission(trx, {
      uid,
      result: jsonColumns(
        storedResultColumns(
          result,
          { id: resultId, uid, timestamp, name: account.name, tags, isPb, xp: xp.xp },
          keys,
        ),
      ),
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
        reasons: holds,
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
      holds,
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

  /** 462: a result cannot end before the previous one's end plus its own length (one second of timestamp slack). */
  private checkSpacing(
    uid: string,
    result: CompletedResultDto,
    account: LockedAccount,
    timestamp: number,
  ): void {
    if (account.lastResultAt === null) return;
    const earliest = account.lastResultAt + result.testDuration * 1000 + result.incompleteTestSeconds * 1000;
    if (timestamp < earliest - 1000) {
      this.logger.warn({ uid, lastResultAt: account.lastResultAt, timestamp }, 'invalid result spacing');
      throw new AppError(462, RESULT_MESSAGES.spacing);
    }
  }

  /** Key timing of a fast timed test (the `results.botCheck` gate): the open checks, then the operator's rules. */
  private async judgeKeys(
    result: CompletedResultDto,
    account: LockedAccount,
    keys: { spacing: KeyStats | null; duration: KeyStats | null },
    config: ServerConfiguration,
    registry: AntiCheatContext,
  ): Promise<HoldReason[]> {
    const verdict = judgeKeyTiming(result, account.lbOptOut, config.results);
    if (verdict.outcome === 'refuse') throw new RefusedInTransaction(verdict.refusal);
    if (inBotGate(result, account.lbOptOut, config.results) && keys.spacing && keys.duration) {
      const human = await this.registry.current.validateKeys(
        result,
        { spacing: keys.spacing, duration: keys.duration },
        registry,
      );
      if (!human) {
        throw new RefusedInTransaction({
          status: 465,
          message: RESULT_MESSAGES.bot,
          check: 'registry',
          figures: { wpm: result.wpm },
        });
      }
    }
    return verdict.outcome === 'hold' ? verdict.holds : [];
  }

  /** 466: the same result twice. Returns the new list of remembered hashes (null when the check is off). */
  private rememberHash(
    uid: string,
    result: CompletedResultDto,
    account: LockedAccount,
    config: ServerConfiguration,
  ): string[] | null {
    const { enabled, maxHashes } = config.users.lastHashesCheck;
    if (!enabled) return null;
    if (account.lastResultHashes.includes(result.hash)) {
      this.logger.warn({ uid, hash: result.hash }, 'duplicate result');
      throw new AppError(466, RESULT_MESSAGES.duplicate);
    }
    return [result.hash, ...account.lastResultHashes].slice(0, maxHashes);
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
}
