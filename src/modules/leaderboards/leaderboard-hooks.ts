import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { isStoreUnavailable } from '../../common/filters/store-errors';
import { APP_ENV, type AppEnv } from '../../config/env';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { Executor } from '../../infra/database/transaction';
import { REDIS_HEALTH, type RedisHealth } from '../../infra/redis/redis-health';
import {
  ResultHooks,
  type ResultExtras,
  type ResultSavedEvent,
  type TimeTypedChange,
} from '../results/result-hooks';
import { BoardCatchUpService } from './board-catch-up.service';
import { BoardRemovalsRepository } from './board-removals.repository';
import { DailyLeaderboardService } from './daily-leaderboard.service';
import { JobRunsRepository } from './job-runs.repository';
import { crossesMinTimeTyping } from './leaderboard-rules';
import { LeaderboardSnapshotService } from './leaderboard-snapshot.service';
import { WeeklyXpLeaderboardService } from './weekly-xp-leaderboard.service';

const FEATURE = 'leaderboards';

/**
 * Where the boards meet the rest of the platform: accepted results enter the daily and weekly boards (post-commit,
 * idempotent), and opting out, a ban, an account reset or deletion take the user off every board at once.
 */
@Injectable()
export class LeaderboardHooks implements OnModuleInit {
  private readonly logger = new Logger(LeaderboardHooks.name);

  constructor(
    private readonly results: ResultHooks,
    private readonly lifecycle: AccountLifecycle,
    private readonly daily: DailyLeaderboardService,
    private readonly weekly: WeeklyXpLeaderboardService,
    private readonly snapshot: LeaderboardSnapshotService,
    private readonly configuration: ServerConfigurationService,
    private readonly catchUp: BoardCatchUpService,
    private readonly jobRuns: JobRunsRepository,
    private readonly removals: BoardRemovalsRepository,
    @Inject(REDIS_HEALTH) private readonly health: RedisHealth,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  onModuleInit(): void {
    this.results.afterResultSaved(FEATURE, (event) => this.afterResult(event));
    this.results.withinSubmission(FEATURE, (change, trx, config) =>
      this.admitIfNowEligible(change, trx, config),
    );
    // Bans, opt-outs and deletions are queued by a trigger on `users`; a reset in its own transaction, here.
    this.lifecycle.onReset(FEATURE, (uid, trx) => this.removals.enqueue(uid, 'reset', trx));
    // A held result a moderator approved enters the daily and weekly boards it still can (all-time: PostgreSQL).
    this.results.afterResultApproved(FEATURE, (event) => this.afterResult({ ...event, held: false }));
    const purge = (uid: string) => this.purge(uid);
    this.lifecycle.afterLeaderboardOptOut(FEATURE, purge);
    this.lifecycle.afterBan(FEATURE, purge);
    this.lifecycle.afterReset(FEATURE, purge);
    this.lifecycle.afterDelete(FEATURE, purge);
    this.lifecycle.onDelete(FEATURE, (uid, trx) => this.jobRuns.forgetUser(uid, trx));
    this.lifecycle.afterUnban(FEATURE, (uid) => this.snapshot.readmitUser(uid));
  }

  /**
   * While Redis is unreachable the result is already safe in PostgreSQL: the board writes are skipped (no ranks in
   * the response) and owed to the catch-up, which rebuilds them from the stored results when Redis is back.
   */
  async afterResult(event: ResultSavedEvent): Promise<ResultExtras> {
    // Held for review: off every board until a moderator approves it (the catch-up skips it too).
    if (event.held) return {};
    if (!this.health.available) {
      this.catchUp.boardsMissed(event.timestamp);
      return {};
    }
    const config = await this.configuration.get();
    let daily: number | undefined;
    let weekly: number | undefined;
    try {
      [daily, weekly] = await Promise.all([
        this.daily.record(event, config),
        this.weekly.record(event, config),
      ]);
    } catch (e) {
      if (!isStoreUnavailable(e)) throw e;
      this.logger.warn({ uid: event.uid, resultId: event.resultId }, 'board writes owed to the catch-up');
      this.catchUp.boardsMissed(event.timestamp);
      return {};
    }
    return {
      ...(daily === undefined ? {} : { dailyLeaderboardRank: daily }),
      ...(weekly === undefined ? {} : { weeklyXpLeaderboardRank: weekly }),
    };
  }

  /**
   * A result that takes the user's time typed over `minTimeTyping` makes their personal bests eligible although none
   * of them changed (no trigger queued them): their boards are queued in the submission's transaction, so the next
   * live update ranks them, as it does a new personal best, instead of the next rebuild.
   */
  async admitIfNowEligible(
    change: TimeTypedChange,
    trx: Executor,
    config: ServerConfiguration,
  ): Promise<void> {
    const minTime = this.env.mode === 'dev' ? null : config.leaderboards.minTimeTyping;
    if (!crossesMinTimeTyping(change.timeTypingBefore, change.timeTypingAfter, minTime)) return;
    await this.snapshot.readmitUser(change.uid, trx);
  }

  /**
   * Daily and weekly boards (Redis) and the all-time snapshot at once, closing the ranks below the user (all-time
   * reads also filter banned and opted-out users, so a ban shows there even before the removal commits).
   */
  async purge(uid: string): Promise<void> {
    const outcomes = await Promise.allSettled([this.purgeRedisBoards(uid), this.snapshot.removeUser(uid)]);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    this.logger.log({ uid }, 'user removed from leaderboards');
  }

  /**
   * The change already queued the removal in PostgreSQL: once Redis has it, the queued rows go. While Redis is
   * unreachable they stay, and the board catch-up applies them when it is back.
   */
  private async purgeRedisBoards(uid: string): Promise<void> {
    // PostgreSQL unreachable after the change committed: Redis is purged all the same; the rows wait for the catch-up.
    const queued = await this.removals.idsOf(uid).catch(() => []);
    if (this.health.available) {
      try {
        await Promise.all([this.daily.purge(uid), this.weekly.purge(uid)]);
        await this.removals.forget(queued).catch(() => this.catchUp.removalsMissed());
        return;
      } catch (e) {
        if (!isStoreUnavailable(e)) throw e;
      }
    }
    this.logger.warn(
      { uid },
      'Redis unreachable: the user leaves the daily and weekly boards when it is back',
    );
    this.catchUp.removalsMissed();
  }
}
