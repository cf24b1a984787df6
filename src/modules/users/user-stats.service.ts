import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { DailyLeaderboardService } from '../leaderboards/daily-leaderboard.service';
import { groupPersonalBests, type Mode } from './personal-bests';
import { currentTestActivity, testActivityByYear, utcDay, CURRENT_ACTIVITY_DAYS } from './test-activity';
import { streakView, typingStats } from './user-views';
import { UserStatsRepository } from './user-stats.repository';
import { UsersRepository, type UserRecord } from './users.repository';

/** The caller's own numbers: personal bests, typing stats, streak and test activity. */
@Injectable()
export class UserStatsService {
  private readonly logger = new Logger(UserStatsService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly stats: UserStatsRepository,
    private readonly clock: Clock,
    private readonly dailyBoards: DailyLeaderboardService,
  ) {}

  private async user(uid: string): Promise<UserRecord> {
    const user = await this.users.findByUid(uid);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    return user;
  }

  /** All of them; with `mode` that mode's map; with `mode2` too, that list (null when there is none). */
  async personalBests(uid: string, mode?: string, mode2?: string) {
    const bests = groupPersonalBests(await this.stats.personalBests(uid, mode, mode2));
    if (mode === undefined) return bests;
    const byMode2 = bests[mode as Mode];
    return mode2 === undefined ? byMode2 : (byMode2[mode2] ?? null);
  }

  async typingStats(uid: string) {
    return typingStats(await this.user(uid));
  }

  async streak(uid: string) {
    return streakView(await this.user(uid));
  }

  async setHourOffset(uid: string, hourOffset: number): Promise<void> {
    if (!(await this.users.setHourOffset(uid, hourOffset, this.clock.now()))) {
      throw new AppError(403, 'Streak hour offset already set');
    }
    this.logger.log({ uid, hourOffset }, 'streak hour offset set');
  }

  async setLeaderboardMemory(
    uid: string,
    key: { mode: string; mode2: string; language: string },
    rank: number,
  ): Promise<void> {
    if (!(await this.users.setLbMemory(uid, key, rank))) throw new AppError(404, MESSAGES.userNotFound);
  }

  /**
   * Contract facts U11: every personal best goes (the all-time board's bests follow through the trigger on
   * `personal_bests`, so the next snapshot drops the user); the daily boards are purged after commit. Tag personal
   * bests stay, as on the original.
   */
  async clearPersonalBests(uid: string): Promise<void> {
    await this.users.inTransaction(async (trx) => {
      if (!(await this.users.lock(uid, trx))) throw new AppError(404, MESSAGES.userNotFound);
      await this.stats.deletePersonalBests(uid, trx);
    });
    this.logger.log({ uid }, 'personal bests cleared');
    await this.dailyBoards
      .purge(uid)
      .catch((e: Error) => this.logger.error({ uid, err: e.message }, 'daily board purge failed'));
  }

  async testActivityByYear(uid: string) {
    return testActivityByYear(await this.stats.testActivity(uid));
  }

  async currentTestActivity(uid: string) {
    const now = this.clock.now();
    return currentTestActivity(
      await this.stats.testActivity(uid, utcDay(now) - CURRENT_ACTIVITY_DAYS + 1),
      now,
    );
  }
}
