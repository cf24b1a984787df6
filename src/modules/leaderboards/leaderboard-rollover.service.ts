import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { InboxService } from '../inbox/inbox.service';
import type { NewMail } from '../inbox/inbox.types';
import { DailyLeaderboardService } from './daily-leaderboard.service';
import { JobRunsRepository } from './job-runs.repository';
import type { SpeedEntry } from './leaderboard-entries';
import {
  bracketReward,
  DAY_MS,
  deepestRewardedRank,
  enabledBoards,
  formatDuration,
  isoDate,
  isoWeekStart,
  matchesModeRules,
  ordinal,
  utcDayStart,
} from './leaderboard-rules';
import { WeeklyXpLeaderboardService } from './weekly-xp-leaderboard.service';

/** Results saved just before midnight may still be on their way to yesterday's board. */
export const ROLLOVER_GRACE_MS = 60_000;
export const DAILY_ROLLOVER = 'daily-rollover';
export const WEEKLY_ROLLOVER = 'weekly-rollover';

interface Reward {
  uid: string;
  mail: NewMail;
}

/**
 * Closes finished periods: yesterday's daily boards and last week's XP board. Their final standings are recorded and
 * the configured reward mails go out in the same transaction as that record, so each period pays exactly once.
 */
@Injectable()
export class LeaderboardRolloverService {
  private readonly logger = new Logger(LeaderboardRolloverService.name);

  constructor(
    private readonly daily: DailyLeaderboardService,
    private readonly weekly: WeeklyXpLeaderboardService,
    private readonly inbox: InboxService,
    private readonly runs: JobRunsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  /** Closes yesterday's daily boards unless that was done; true when this call did it. */
  async dailyIfDue(): Promise<boolean> {
    const now = this.clock.now();
    const today = utcDayStart(now);
    if (now < today + ROLLOVER_GRACE_MS) return false;
    const day = today - DAY_MS;
    return this.closeOnce(DAILY_ROLLOVER, isoDate(day), () => this.dailyStandings(day));
  }

  /** Closes last week's XP board unless that was done; true when this call did it. */
  async weeklyIfDue(): Promise<boolean> {
    const now = this.clock.now();
    const thisWeek = isoWeekStart(now);
    if (now < thisWeek + ROLLOVER_GRACE_MS) return false;
    const week = thisWeek - 7 * DAY_MS;
    return this.closeOnce(WEEKLY_ROLLOVER, isoDate(week), () => this.weeklyStandings(week));
  }

  private async closeOnce(
    job: string,
    period: string,
    standings: () => Promise<{ details: object; rewards: Reward[] }>,
  ): Promise<boolean> {
    if (await this.runs.isDone(job, period)) return false;
    const outcome = await this.runs.exclusively(job, async () => {
      if (await this.runs.isDone(job, period)) return false;
      const { details, rewards } = await standings();
      const sent = await this.runs.transaction(async (trx) => {
        if (!(await this.runs.record(job, period, this.clock.now(), details, trx))) return null;
        const existing = await this.runs.existingUids(
          rewards.map((r) => r.uid),
          trx,
        );
        let mails = 0;
        for (const reward of rewards) {
          if (existing.has(reward.uid) && (await this.inbox.send(reward.uid, reward.mail, trx))) mails++;
        }
        return mails;
      });
      if (sent === null) return false;
      this.logger.log({ job, period, mails: sent, ...details }, 'leaderboard period closed');
      return true;
    });
    return outcome.ran && outcome.value;
  }

  private async dailyStandings(day: number): Promise<{ details: object; rewards: Reward[] }> {
    const config = (await this.configuration.get()).dailyLeaderboards;
    const depth = Math.max(config.topResultsToAnnounce, deepestRewardedRank(config.xpRewardBrackets));
    const boards = enabledBoards(config.validModeRules).filter((board) =>
      matchesModeRules(config.scheduleRewardsModeRules, board),
    );
    const rewards: Reward[] = [];
    const closed: object[] = [];
    for (const board of boards) {
      const top = await this.daily.top(day, board, depth);
      if (top.length === 0) continue;
      closed.push({ ...board, top: top.slice(0, config.topResultsToAnnounce).map(standing) });
      for (const entry of top) {
        const xp = bracketReward(entry.rank, config.xpRewardBrackets);
        if (xp === null || xp <= 0) continue;
        rewards.push({
          uid: entry.uid,
          mail: {
            subject: 'Daily leaderboard placement',
            body: `Congratulations ${entry.name} on placing ${ordinal(entry.rank)} with ${Math.round(entry.wpm)} wpm in the ${board.language} ${board.mode} ${board.mode2} daily leaderboard!`,
            rewards: [{ type: 'xp', item: xp }],
          },
        });
      }
    }
    return { details: { boards: closed }, rewards };
  }

  private async weeklyStandings(week: number): Promise<{ details: object; rewards: Reward[] }> {
    const brackets = (await this.configuration.get()).leaderboards.weeklyXp.xpRewardBrackets;
    const top = await this.weekly.top(week, deepestRewardedRank(brackets));
    const rewards: Reward[] = [];
    for (const entry of top) {
      const xp = bracketReward(entry.rank, brackets);
      if (xp === null || xp <= 0) continue;
      rewards.push({
        uid: entry.uid,
        mail: {
          subject: 'Weekly XP Leaderboard placement',
          body: `Congratulations ${entry.name} on placing ${ordinal(entry.rank)} with ${entry.totalXp} xp! Last week, you typed for a total of ${formatDuration(entry.timeTypedSeconds)}! Keep up the good work :)`,
          rewards: [{ type: 'xp', item: xp }],
        },
      });
    }
    return { details: { top: top.map((e) => ({ uid: e.uid, rank: e.rank, totalXp: e.totalXp })) }, rewards };
  }
}

function standing(entry: SpeedEntry) {
  return { uid: entry.uid, name: entry.name, rank: entry.rank, wpm: entry.wpm, acc: entry.acc };
}
