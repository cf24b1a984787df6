import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { Clock } from '../../common/clock';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { JobRunsRepository } from './job-runs.repository';
import { LeaderboardRolloverService } from './leaderboard-rollover.service';
import { LeaderboardSnapshotService } from './leaderboard-snapshot.service';

export const REBUILD = 'rebuild';
export const JOBS_INTERVAL_NAME = 'leaderboard-jobs';
/** How often a process looks for due jobs; each job runs at most once per its own period. */
export const JOBS_TICK_MS = 15_000;

export interface JobsReport {
  rebuilt: boolean;
  /** Queued personal-best changes applied to the all-time snapshot (0 while a rebuild held it). */
  liveChanges: number;
  dailyClosed: boolean;
  weeklyClosed: boolean;
}

/**
 * The leaderboard schedule. Every JOBS_TICK_MS a process with JOBS_ENABLED runs whatever is due: the all-time
 * rebuild once per `leaderboards.rebuildIntervalSeconds`, the live updates of the all-time boards on every tick
 * (new personal bests ranked within a tick, not at the next rebuild), yesterday's daily boards after midnight UTC, last week's
 * XP board after Monday 00:00 UTC. Periods are recorded in PostgreSQL and job bodies hold an advisory lock, so N
 * replicas (or a retry) run each period once. `runDueJobs()` is callable directly (tests, operators).
 */
@Injectable()
export class LeaderboardJobsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(LeaderboardJobsService.name);
  private running: Promise<JobsReport> | null = null;
  private stopped = false;
  private checkedEmpty = false;

  constructor(
    private readonly snapshot: LeaderboardSnapshotService,
    private readonly rollover: LeaderboardRolloverService,
    private readonly runs: JobRunsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly scheduler: SchedulerRegistry,
    private readonly clock: Clock,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.env.jobsEnabled) return;
    const tick = () => {
      if (!this.stopped) void this.runDueJobs();
    };
    this.scheduler.addInterval(JOBS_INTERVAL_NAME, setInterval(tick, JOBS_TICK_MS));
    setImmediate(tick);
  }

  /** Stops ticking and lets a running job finish while the database pool is still open (closed at shutdown). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.scheduler.doesExist('interval', JOBS_INTERVAL_NAME))
      this.scheduler.deleteInterval(JOBS_INTERVAL_NAME);
    await this.running;
  }

  /** Runs every due job once; a tick that finds the previous one still running waits for it instead. */
  runDueJobs(): Promise<JobsReport> {
    this.running ??= this.runAll().finally(() => (this.running = null));
    return this.running;
  }

  /**
   * The rebuild of the current period, unless another process did it; true when this call rebuilt. With
   * `ifEmpty`, an empty snapshot is rebuilt even in a finished period (a process starting after crash recovery
   * emptied the unlogged snapshot table).
   */
  async rebuildIfDue(ifEmpty = false): Promise<boolean> {
    const interval = (await this.configuration.get()).leaderboards.rebuildIntervalSeconds * 1000;
    const period = String(Math.floor(this.clock.now() / interval));
    const due = async () =>
      !(await this.runs.isDone(REBUILD, period)) || (ifEmpty && (await this.snapshot.isEmpty()));
    if (!(await due())) return false;
    const outcome = await this.runs.exclusively(`${REBUILD}-period`, async () => {
      if (!(await due())) return false;
      const summary = await this.snapshot.rebuild();
      if (!summary) return false;
      await this.runs.record(REBUILD, period, this.clock.now(), summary);
      return true;
    });
    return outcome.ran && outcome.value;
  }

  private async runAll(): Promise<JobsReport> {
    const attempt = async <T>(job: string, fn: () => Promise<T>, failed: T): Promise<T> => {
      try {
        return await fn();
      } catch (e) {
        this.logger.error({ job, err: (e as Error).message }, 'leaderboard job failed');
        return failed;
      }
    };
    const ifEmpty = !this.checkedEmpty;
    this.checkedEmpty = true;
    return {
      rebuilt: await attempt(REBUILD, () => this.rebuildIfDue(ifEmpty), false),
      liveChanges: await attempt('live-ranks', async () => (await this.snapshot.drainLiveChanges()) ?? 0, 0),
      dailyClosed: await attempt('daily-rollover', () => this.rollover.dailyIfDue(), false),
      weeklyClosed: await attempt('weekly-rollover', () => this.rollover.weeklyIfDue(), false),
    };
  }
}
