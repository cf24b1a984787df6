import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { isStoreUnavailable } from '../../common/filters/store-errors';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import { REDIS_HEALTH, type RedisHealth } from '../../infra/redis/redis-health';
import { ResultHooks, type ResultExtras, type ResultSavedEvent } from '../results/result-hooks';
import { BoardCatchUpService } from './board-catch-up.service';
import { DailyLeaderboardService } from './daily-leaderboard.service';
import { JobRunsRepository } from './job-runs.repository';
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
    @Inject(REDIS_HEALTH) private readonly health: RedisHealth,
  ) {}

  onModuleInit(): void {
    this.results.afterResultSaved(FEATURE, (event) => this.afterResult(event));
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
   * Daily and weekly boards at once; the all-time snapshot too, closing the ranks below the user (reads also filter
   * banned and opted-out users, so a ban shows even before the removal commits).
   */
  async purge(uid: string): Promise<void> {
    const outcomes = await Promise.allSettled([
      this.daily.purge(uid),
      this.weekly.purge(uid),
      this.snapshot.removeUser(uid),
    ]);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    this.logger.log({ uid }, 'user removed from leaderboards');
  }
}
