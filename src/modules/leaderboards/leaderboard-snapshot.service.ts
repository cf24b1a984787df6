import { Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { LANGUAGES } from '../../common/languages';
import { APP_ENV, type AppEnv } from '../../config/env';
import type { Executor } from '../../infra/database/transaction';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { JobRunsRepository } from './job-runs.repository';
import { LiveRanksRepository, type AppliedChanges } from './live-ranks.repository';
import { SNAPSHOT_SHARDS, SnapshotRepository } from './snapshot.repository';

export interface RebuildSummary {
  boards: number;
  entries: number;
  ms: number;
}

/** The steps of a rebuild (for progress reports); the shards' steps interleave, as they run at the same time. */
export const REBUILD_STEPS = [
  'boards',
  ...Array.from({ length: SNAPSHOT_SHARDS }, (_, i) => [
    `shard ${i + 1} ranked`,
    `shard ${i + 1} indexed`,
  ]).flat(),
  'swapped',
];
/** Queued changes applied per statement: a tick's worth at a hundred new personal bests a second. */
export const LIVE_BATCH = 5_000;
/** Batches per hold of the snapshot's lock at most, so a rebuild waiting for it never waits long. */
const LIVE_MAX_BATCHES = 20;

/** What one hold of the lock applied, and whether the queue still had changes when it let go. */
export interface LiveRun extends AppliedChanges {
  backlog: boolean;
}
/**
 * The lock of everything that writes the snapshot: the rebuild, the live updates and removals. The rebuild's own
 * lock ('rebuild', refused at once when held: one build at a time) is separate, so a live update of a few
 * milliseconds only delays a rebuild (it waits for this one) instead of refusing it.
 */
const SNAPSHOT_LOCK = 'snapshot-writes';
/** How long a rebuild waits for a live update or a removal to finish. */
const WRITES_WAIT_MS = 60_000;
/** How long a removal waits for a running rebuild (seconds at a million entries) before leaving it to the job. */
const REMOVE_WAIT_MS = 30_000;

export type RebuildProgress = (step: string, done: number, total: number) => void;

/**
 * The all-time snapshot: every board rebuilt from personal bests of eligible users and swapped in atomically.
 * `rebuild()` is the one entry point (scheduled job, CLI, benchmark).
 */
@Injectable()
export class LeaderboardSnapshotService {
  private readonly logger = new Logger(LeaderboardSnapshotService.name);

  constructor(
    private readonly repository: SnapshotRepository,
    private readonly live: LiveRanksRepository,
    private readonly runs: JobRunsRepository,
    private readonly configuration: ServerConfigurationService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  /**
   * Rebuilds every board now. Returns null without waiting when another process is rebuilding at this moment
   * (one build at a time across replicas: they share the staging table).
   */
  async rebuild(onProgress?: RebuildProgress): Promise<RebuildSummary | null> {
    const outcome = await this.runs.exclusively('rebuild', () =>
      this.runs.exclusively(SNAPSHOT_LOCK, () => this.build(onProgress), WRITES_WAIT_MS),
    );
    return outcome.ran && outcome.value.ran ? outcome.value.value : null;
  }

  /**
   * Applies the queued personal-best changes to the live snapshot (new bests enter with their rank, others move),
   * batch by batch until the queue is empty. Returns null without waiting while a rebuild runs: the queue is left
   * as it is, and what the rebuild already saw re-applies harmlessly after its swap.
   */
  async applyLiveChanges(): Promise<LiveRun | null> {
    const outcome = await this.runs.exclusively(SNAPSHOT_LOCK, async () => {
      const minTimeTyping = await this.minTimeTyping();
      const total: LiveRun = { taken: 0, pairs: 0, added: 0, removed: 0, backlog: false };
      for (let batch = 0; batch < LIVE_MAX_BATCHES; batch++) {
        const applied = await this.live.applyQueued(minTimeTyping, LIVE_BATCH);
        total.taken += applied.taken;
        total.pairs += applied.pairs;
        total.added += applied.added;
        total.removed += applied.removed;
        // A full batch of queue rows (however many distinct pairs they held) means more may be waiting.
        total.backlog = applied.taken === LIVE_BATCH;
        if (!total.backlog) break;
      }
      return total;
    });
    return outcome.ran ? outcome.value : null;
  }

  /**
   * Drains the queue: runs of applyLiveChanges, letting go of the lock between them (a rebuild may take its turn),
   * until no backlog is left, so a burst of new bests is ranked within the tick rather than a few thousand a tick.
   * Returns the pairs applied; null when a rebuild held the snapshot (the queue waits for the next tick).
   */
  async drainLiveChanges(): Promise<number | null> {
    let pairs = 0;
    for (;;) {
      const run = await this.applyLiveChanges();
      if (!run) return pairs > 0 ? pairs : null;
      pairs += run.pairs;
      if (!run.backlog) return pairs;
    }
  }

  /**
   * Takes a user off the snapshot at once, closing the ranks below them (a ban, opt-out, reset or deletion, already
   * committed): their boards are queued first, so a rebuild in flight that swaps in their old entries is corrected
   * by the next job run, then applied under the snapshot's lock (waiting for a running rebuild).
   */
  async removeUser(uid: string): Promise<void> {
    await this.live.enqueueUser(uid);
    const outcome = await this.runs.exclusively(
      SNAPSHOT_LOCK,
      async () => this.live.applyUser(uid, await this.minTimeTyping()),
      REMOVE_WAIT_MS,
    );
    if (!outcome.ran) this.logger.warn({ uid }, 'snapshot busy: the user leaves it at the next live update');
  }

  /**
   * Lets a user (back) onto the all-time boards: an unban, or a result that took their time typed over
   * `leaderboards.minTimeTyping` (then inside the submission's transaction, `executor`). Their boards are queued, so
   * the next live update enters their current personal bests with their ranks instead of the next rebuild. Daily and
   * weekly boards are not restored: they only take results submitted from now on.
   */
  async readmitUser(uid: string, executor?: Executor): Promise<void> {
    await this.live.enqueueUser(uid, executor);
  }

  /** Spec: the time check is skipped in a development environment. */
  private async minTimeTyping(): Promise<number | null> {
    return this.env.mode === 'dev' ? null : (await this.configuration.get()).leaderboards.minTimeTyping;
  }

  isEmpty(): Promise<boolean> {
    return this.repository.isEmpty();
  }

  private async build(onProgress?: RebuildProgress): Promise<RebuildSummary> {
    const started = performance.now();
    let done = 0;
    const step = (name: string) => onProgress?.(name, ++done, REBUILD_STEPS.length);
    await this.repository.ensureBoards(LANGUAGES);
    step('boards');
    const minTimeTyping = await this.minTimeTyping();
    const staged = await this.repository.buildStaging(minTimeTyping, step);
    await this.repository.swap(staged.ranges);
    step('swapped');
    const summary = {
      boards: staged.ranges.length,
      entries: staged.entries,
      ms: Math.round(performance.now() - started),
    };
    this.logger.log(summary, 'all-time leaderboards rebuilt');
    return summary;
  }
}
