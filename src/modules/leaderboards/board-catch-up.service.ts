import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { Clock } from '../../common/clock';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { REDIS_HEALTH, type RedisHealth } from '../../infra/redis/redis-health';
import { BoardCatchUpRepository } from './board-catch-up.repository';
import { BoardRemovalsRepository } from './board-removals.repository';
import { DailyLeaderboardService } from './daily-leaderboard.service';
import { JobRunsRepository } from './job-runs.repository';
import { DAY_MS, enabledBoards, isoWeekStart, utcDayStart } from './leaderboard-rules';
import { WEEK_MS, WeeklyXpLeaderboardService } from './weekly-xp-leaderboard.service';

export const CATCH_UP_JOB = 'boards-catch-up';
/** Pause before another pass when one could not finish (Redis still down, another replica holding the lock). */
export const CATCH_UP_RETRY_MS = 5_000;
/** How often a process with JOBS_ENABLED looks for queued removals nobody applied (a crash, a CLI without Redis). */
export const REMOVALS_CHECK_MS = 15_000;
/** `since` of a pass that rebuilds every day and week still kept. */
export const ALL_KEPT = 0;
/** Boards written concurrently per batch: enough to fill the auto-pipeline, few enough to leave room for requests. */
const BATCH = 200;
/** Queued removals read per step. */
const REMOVALS_BATCH = 1_000;

export interface CatchUpReport {
  dailyEntries: number;
  weeklyEntries: number;
  /** Weekly entries a newer live write made wait for the next pass. */
  deferred: number;
  /** Users taken off the daily and weekly boards from the removal queue. */
  removedUsers: number;
}

/**
 * Brings the daily and weekly XP boards (Redis) back in line with PostgreSQL, the source of truth, after results
 * were committed without their board writes: Redis was unreachable (the hooks skip it and mark the boards dirty), or
 * a process died between commit and hooks. A pass first applies the queued removals (bans, opt-outs, resets and
 * deletions the post-commit purge could not take to Redis, BoardRemovalsRepository), then rebuilds what is owed.
 *
 * Triggers: Redis coming back after this process saw it go (at once, every day and week still kept: a restarted
 * Redis lost them all); a board write or removal that failed while Redis looked up (after CATCH_UP_RETRY_MS); and in
 * a process with JOBS_ENABLED its start (every day kept; covers a crash) and queued removals found every
 * REMOVALS_CHECK_MS. A pass runs under the advisory lock of the leaderboard jobs, so one replica at a time does it; a
 * pass that could not run or finish is retried. Idempotent: a removal applied twice removes nothing more, daily
 * entries only ever improve (writing a day's best again changes nothing) and weekly totals are set, not added, from
 * the week's results (their `xp` column).
 */
@Injectable()
export class BoardCatchUpService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(BoardCatchUpService.name);
  /** Earliest result time whose board writes may be missing; null when the boards are believed complete. */
  private dirtySince: number | null = null;
  /** Removals may be queued that this process should apply (its own purge failed, or the check found some). */
  private removalsOwed = false;
  private timer: NodeJS.Timeout | null = null;
  private check: NodeJS.Timeout | null = null;
  private running: Promise<CatchUpReport | null> | null = null;
  private stopped = false;

  constructor(
    private readonly repository: BoardCatchUpRepository,
    private readonly removals: BoardRemovalsRepository,
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
      this.removalsOwed = true;
      this.markDirty(ALL_KEPT);
      this.schedule(0);
    });
    if (this.env.jobsEnabled) {
      this.removalsOwed = true;
      this.markDirty(ALL_KEPT);
      this.schedule(0);
      this.check = setInterval(() => void this.checkRemovals(), REMOVALS_CHECK_MS);
      this.check.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.check) clearInterval(this.check);
    await this.running?.catch(() => undefined);
  }

  /** Board writes of results stored at `since` or later may be missing; a pass is scheduled. */
  boardsMissed(since: number): void {
    this.markDirty(since);
    this.schedule(CATCH_UP_RETRY_MS);
  }

  /** A removal could not reach Redis: the queued rows are applied by a pass, retried until Redis answers. */
  removalsMissed(): void {
    this.removalsOwed = true;
    this.schedule(CATCH_UP_RETRY_MS);
  }

  /** Whether a pass is running or still owed (tests, operators). */
  get pending(): boolean {
    return this.dirtySince !== null || this.removalsOwed || this.running !== null;
  }

  /**
   * One pass now: the queued removals, then the boards from `since` (default: every day and week still kept); null
   * when Redis is down or another process holds the lock (a retry is then scheduled). Concurrent calls share one pass.
   */
  catchUp(since: number = ALL_KEPT): Promise<CatchUpReport | null> {
    this.markDirty(since);
    return this.run();
  }

  private run(): Promise<CatchUpReport | null> {
    this.running ??= this.pass().finally(() => (this.running = null));
    return this.running;
  }

  /** JOBS_ENABLED: removals queued by a process that could not apply them (crashed, or a CLI run without Redis). */
  private async checkRemovals(): Promise<void> {
    if (this.stopped || !this.health.available || this.timer) return;
    try {
      if (await this.removals.any()) {
        this.removalsOwed = true;
        this.schedule(0);
      }
    } catch {
      // PostgreSQL unreachable: the next check looks again.
    }
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
      void this.run().catch(() => undefined);
    }, delayMs);
    this.timer.unref();
  }

  private async pass(): Promise<CatchUpReport | null> {
    const since = this.dirtySince;
    // Failures seen from here on are owed by a later pass: this one may have read PostgreSQL before them.
    this.dirtySince = null;
    this.removalsOwed = false;
    const retry = () => {
      if (since !== null) this.markDirty(since);
      this.removalsOwed = true;
      this.schedule(CATCH_UP_RETRY_MS);
      return null;
    };
    if (!this.health.available) return retry();
    try {
      const outcome = await this.runs.exclusively(CATCH_UP_JOB, async () => {
        // Removals first: the rebuild then enters only users eligible now, and never brings a removed one back.
        const removedUsers = await this.applyRemovals();
        const boards =
          since === null ? { dailyEntries: 0, weeklyEntries: 0, deferred: 0 } : await this.rebuild(since);
        return { ...boards, removedUsers };
      });
      if (!outcome.ran) return retry();
      if (outcome.value.deferred > 0) {
        if (since !== null) this.markDirty(since);
        this.schedule(CATCH_UP_RETRY_MS);
      }
      this.logger.log({ since, ...outcome.value }, 'daily and weekly boards caught up from PostgreSQL');
      return outcome.value;
    } catch (e) {
      this.logger.warn({ since, err: (e as Error).message }, 'board catch-up failed; retrying');
      return retry();
    }
  }

  /**
   * Takes every user of the removal queue off the daily and weekly boards still kept, oldest first; a batch's rows
   * are deleted once Redis has removed its users. The number of users removed.
   */
  private async applyRemovals(): Promise<number> {
    let users = 0;
    for (;;) {
      const queued = await this.removals.oldest(REMOVALS_BATCH);
      const uids = [...new Set(queued.map((removal) => removal.uid))];
      await inBatches(uids, (uid) => Promise.all([this.daily.purge(uid), this.weekly.purge(uid)]));
      await this.removals.forget(queued.map((removal) => removal.id));
      users += uids.length;
      if (queued.length < REMOVALS_BATCH) return users;
    }
  }

  private async rebuild(since: number): Promise<Omit<CatchUpReport, 'removedUsers'>> {
    const config = await this.configuration.get();
    const now = this.clock.now();
    const minTime = this.env.mode === 'dev' ? null : config.leaderboards.minTimeTyping;
    const report = { dailyEntries: 0, weeklyEntries: 0, deferred: 0 };

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
