import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Clock } from '../../common/clock';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import { REDIS_HEALTH, type RedisHealth } from '../../infra/redis/redis-health';
import { BoardCatchUpRepository } from './board-catch-up.repository';
import { DailyLeaderboardService } from './daily-leaderboard.service';
import { JobRunsRepository } from './job-runs.repository';
import { DAY_MS, enabledBoards, isoWeekStart, utcDayStart } from './leaderboard-rules';
import { WEEK_MS, WeeklyXpLeaderboardService } from './weekly-xp-leaderboard.service';

export const CATCH_UP_JOB = 'boards-catch-up';
/** Pause before another pass when one could not finish (Redis still down, another replica holding the lock). */
export const CATCH_UP_RETRY_MS = 5_000;
/** Boards written concurrently per batch: enough to fill the auto-pipeline, few enough to leave room for requests. */
const BATCH = 200;

export interface CatchUpReport {
  dailyEntries: number;
  weeklyEntries: number;
  /** Weekly entries a newer live write made wait for the next pass. */
  deferred: number;
}

/**
 * Brings the daily and weekly XP boards (Redis) back in line with PostgreSQL, the source of truth, after results
 * were committed without their board writes: Redis was unreachable (the hooks skip it and mark the boards dirty), or
 * a process died between commit and hooks.
 *
 * Triggers: Redis coming back after this process saw it go (at once); a board write that failed while Redis looked
 * up (after CATCH_UP_RETRY_MS); and the start of a process with JOBS_ENABLED (today and this week; covers a crash).
 * A pass runs under the advisory lock of the leaderboard jobs, so one replica at a time does it; a pass that could not
 * run or finish is retried. Idempotent: daily entries only ever improve (writing a day's best again changes
 * nothing) and weekly totals are set, not added, from the week's results (their `xp` column).
 */
@Injectable()
export class BoardCatchUpService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BoardCatchUpService.name);
  /** Earliest result time whose board writes may be missing; null when the boards are believed complete. */
  private dirtySince: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<CatchUpReport | null> | null = null;
  private stopped = false;

  constructor(
    private readonly repository: BoardCatchUpRepository,
    private readonly runs: JobRunsRepository,
    private readonly daily: DailyLeaderboardService,
    private readonly weekly: WeeklyXpLeaderboardService,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
    @Inject(REDIS_HEALTH) private readonly health: RedisHealth,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.health.onRecovered(() => {
      this.markDirty(this.clock.now());
      this.schedule(0);
    });
    if (this.env.jobsEnabled) {
      this.markDirty(this.clock.now());
      this.schedule(0);
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** Board writes of results stored at `since` or later may be missing; a pass is scheduled. */
  boardsMissed(since: number): void {
    this.markDirty(since);
    this.schedule(CATCH_UP_RETRY_MS);
  }

  /** Whether a pass is still owed (tests, operators). */
  get pending(): boolean {
    return this.dirtySince !== null;
  }

  /**
   * One pass now, from `since` (default: what is owed, else today and this week); null when Redis is down or another
   * process holds the lock (a retry is then scheduled). Concurrent calls share one pass.
   */
  catchUp(since?: number): Promise<CatchUpReport | null> {
    if (since !== undefined) this.markDirty(since);
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  private markDirty(since: number): void {
    this.dirtySince = this.dirtySince === null ? since : Math.min(this.dirtySince, since);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) {
      // A retry is already planned; "now" (Redis is back) replaces it.
      if (delayMs > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.catchUp().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  private async pass(): Promise<CatchUpReport | null> {
    const since = this.dirtySince ?? this.clock.now();
    // Failures seen from here on are owed by a later pass: this one may have read PostgreSQL before them.
    this.dirtySince = null;
    const retry = () => {
      this.markDirty(since);
      this.schedule(CATCH_UP_RETRY_MS);
      return null;
    };
    if (!this.health.available) return retry();
    try {
      const outcome = await this.runs.exclusively(CATCH_UP_JOB, () => this.rebuild(since));
      if (!outcome.ran) return retry();
      if (outcome.value.deferred > 0) retry();
      this.logger.log({ since, ...outcome.value }, 'daily and weekly boards caught up from PostgreSQL');
      return outcome.value;
    } catch (e) {
      this.logger.warn({ since, err: (e as Error).message }, 'board catch-up failed; retrying');
      return retry();
    }
  }

  private async rebuild(since: number): Promise<CatchUpReport> {
    const config = await this.configuration.get();
    const now = this.clock.now();
    const minTime = this.env.mode === 'dev' ? null : config.leaderboards.minTimeTyping;
    const report: CatchUpReport = { dailyEntries: 0, weeklyEntries: 0, deferred: 0 };

    // Days whose boards are still kept, from the one `since` falls in to today.
    const keptDays = Math.ceil(config.dailyLeaderboards.leaderboardExpirationTimeInDays);
    const firstDay = Math.max(utcDayStart(since), utcDayStart(now) - keptDays * DAY_MS);
    const boards = enabledBoards(config.dailyLeaderboards.validModeRules).filter((board) =>
      this.daily.hasBoard(config, board),
    );
    for (let day = firstDay; day <= now; day += DAY_MS) {
      for (const board of boards) {
        const bests = await this.repository.dailyBests(
          day,
          board,
          config.dailyLeaderboards.maxResults,
          minTime,
        );
        await inBatches(bests, (best) => this.daily.enter(best, config));
        report.dailyEntries += bests.length;
      }
    }

    if (config.leaderboards.weeklyXp.enabled) {
      const keptWeeks = Math.ceil(config.leaderboards.weeklyXp.expirationTimeInDays / 7);
      const firstWeek = Math.max(isoWeekStart(since), isoWeekStart(now) - keptWeeks * WEEK_MS);
      for (let week = firstWeek; week <= now; week += WEEK_MS) {
        const totals = await this.repository.weeklyTotals(week, WEEK_MS, minTime);
        const written = await inBatches(totals, (total) => this.weekly.restore(total, config));
        report.weeklyEntries += written.filter((w) => w === true).length;
        report.deferred += written.filter((w) => w === false).length;
      }
    }
    return report;
  }
}

async function inBatches<T, R>(items: T[], write: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += BATCH) {
    out.push(...(await Promise.all(items.slice(i, i + BATCH).map(write))));
  }
  return out;
}
