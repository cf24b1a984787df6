import { Inject, Injectable, Logger } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { LANGUAGES } from '../../common/languages';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import { JobRunsRepository } from './job-runs.repository';
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
    private readonly runs: JobRunsRepository,
    private readonly configuration: ServerConfigurationService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  /**
   * Rebuilds every board now. Returns null without waiting when another process is rebuilding at this moment
   * (one build at a time across replicas: they share the staging table).
   */
  async rebuild(onProgress?: RebuildProgress): Promise<RebuildSummary | null> {
    const outcome = await this.runs.exclusively('rebuild', () => this.build(onProgress));
    return outcome.ran ? outcome.value : null;
  }

  isEmpty(): Promise<boolean> {
    return this.repository.isEmpty();
  }

  private async build(onProgress?: RebuildProgress): Promise<RebuildSummary> {
    const started = performance.now();
    let done = 0;
    const step = (name: string) => onProgress?.(name, ++done, REBUILD_STEPS.length);
    const config = await this.configuration.get();
    await this.repository.ensureBoards(LANGUAGES);
    step('boards');
    // Spec: the time check is skipped in a development environment.
    const minTimeTyping = this.env.mode === 'dev' ? null : config.leaderboards.minTimeTyping;
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
