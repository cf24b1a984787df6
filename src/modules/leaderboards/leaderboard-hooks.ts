import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import { ResultHooks, type ResultExtras, type ResultSavedEvent } from '../results/result-hooks';
import { AllTimeRepository } from './all-time.repository';
import { DailyLeaderboardService } from './daily-leaderboard.service';
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
    private readonly allTime: AllTimeRepository,
    private readonly configuration: ServerConfigurationService,
  ) {}

  onModuleInit(): void {
    this.results.afterResultSaved(FEATURE, (event) => this.afterResult(event));
    const purge = (uid: string) => this.purge(uid);
    this.lifecycle.afterLeaderboardOptOut(FEATURE, purge);
    this.lifecycle.afterBan(FEATURE, purge);
    this.lifecycle.afterReset(FEATURE, purge);
    this.lifecycle.afterDelete(FEATURE, purge);
  }

  async afterResult(event: ResultSavedEvent): Promise<ResultExtras> {
    const config = await this.configuration.get();
    const [daily, weekly] = await Promise.all([
      this.daily.record(event, config),
      this.weekly.record(event, config),
    ]);
    return {
      ...(daily === undefined ? {} : { dailyLeaderboardRank: daily }),
      ...(weekly === undefined ? {} : { weeklyXpLeaderboardRank: weekly }),
    };
  }

  /** Daily and weekly boards at once; the all-time snapshot rows too (reads filter banned and opted-out users). */
  async purge(uid: string): Promise<void> {
    const outcomes = await Promise.allSettled([
      this.daily.purge(uid),
      this.weekly.purge(uid),
      this.allTime.remove(uid),
    ]);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    this.logger.log({ uid }, 'user removed from leaderboards');
  }
}
