import { Injectable } from '@nestjs/common';
import { Clock } from '../../../../common/clock';
import { BoardCatchUpService } from '../../../leaderboards/board-catch-up.service';
import { utcDayStart } from '../../../leaderboards/leaderboard-rules';
import { LeaderboardSnapshotService } from '../../../leaderboards/leaderboard-snapshot.service';
import { DerivedStateRepository } from './derived-state.repository';
import type { FinishReport } from './import-writer';

/**
 * What an import rebuilds from the data it wrote, instead of copying the source's derived state:
 * - per user: the last result's time, and daily activity where the source had none;
 * - the board entry under a personal best held for review (our account export): the best result not held;
 * - the all-time boards: a full snapshot rebuild (the same as the scheduled job's);
 * - today's daily boards, from today's results (as after a Redis outage). Earlier days are not rebuilt: the
 *   source's own job already closed and rewarded them, and rebuilding them here would reward them twice;
 * - this week's XP board, from the XP of this week's results (our account export keeps each result's XP; the
 *   original keeps none, so its users start the week at 0);
 * - public stats need nothing: they are summed from the users and the boards when asked for.
 */
@Injectable()
export class DerivedStateService {
  constructor(
    private readonly repository: DerivedStateRepository,
    private readonly snapshot: LeaderboardSnapshotService,
    private readonly catchUp: BoardCatchUpService,
    private readonly clock: Clock,
  ) {}

  async rebuild(): Promise<FinishReport> {
    const steps: string[] = [];
    steps.push(`last result time set for ${await this.repository.lastResultTimes()} users`);
    steps.push(`test activity counted from results for ${await this.repository.activityFromResults()} users`);
    const offered = await this.repository.boardBestsUnderHeldBests();
    if (offered > 0)
      steps.push(`board entries under ${offered} personal bests held for review brought up to date`);
    const rebuilt = await this.snapshot.rebuild();
    steps.push(
      rebuilt
        ? `all-time leaderboards rebuilt: ${rebuilt.boards} boards, ${rebuilt.entries} entries`
        : 'all-time leaderboards: another rebuild was running; the scheduled job rebuilds them',
    );
    const daily = await this.catchUp.catchUp(utcDayStart(this.clock.now()));
    steps.push(
      daily
        ? `daily leaderboards of today rebuilt: ${daily.dailyEntries} entries; weekly XP board: ${daily.weeklyEntries} entries`
        : 'daily leaderboards: Redis unavailable or busy; they catch up when it is back',
    );
    return { steps };
  }
}
