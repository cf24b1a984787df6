import { Module } from '@nestjs/common';
import { ConnectionModule } from '../connections/connections.module';
import { InboxModule } from '../inbox/inbox.module';
import { ResultsModule } from '../results/results.module';
import { AllTimeLeaderboardService } from './all-time-leaderboard.service';
import { AllTimeRepository } from './all-time.repository';
import { BoardCatchUpRepository } from './board-catch-up.repository';
import { BoardCatchUpService } from './board-catch-up.service';
import { BoardRemovalsRepository } from './board-removals.repository';
import { BoardStoreRepository } from './board-store.repository';
import { DailyLeaderboardService } from './daily-leaderboard.service';
import { FriendsScope } from './friends-scope';
import { JobRunsRepository } from './job-runs.repository';
import { LeaderboardHooks } from './leaderboard-hooks';
import { LeaderboardJobsService } from './leaderboard-jobs.service';
import { LeaderboardRolloverService } from './leaderboard-rollover.service';
import { LeaderboardSnapshotService } from './leaderboard-snapshot.service';
import { LeaderboardsController } from './leaderboards.controller';
import { LiveRanksRepository } from './live-ranks.repository';
import { SnapshotRepository } from './snapshot.repository';
import { WeeklyXpLeaderboardService } from './weekly-xp-leaderboard.service';

/**
 * All-time (PostgreSQL snapshot), daily and weekly XP (Redis) boards, their scheduled jobs and the hooks that feed
 * and purge them. Exports the all-time service (profile ranks), the daily service (clearing personal bests purges
 * the daily boards), the snapshot service (rebuild on demand: CLI, benchmark) and the jobs service. Must not import UsersModule (which imports this one).
 */
@Module({
  imports: [ResultsModule, ConnectionModule, InboxModule],
  controllers: [LeaderboardsController],
  providers: [
    AllTimeRepository,
    SnapshotRepository,
    LiveRanksRepository,
    BoardStoreRepository,
    BoardCatchUpRepository,
    BoardRemovalsRepository,
    JobRunsRepository,
    FriendsScope,
    AllTimeLeaderboardService,
    DailyLeaderboardService,
    WeeklyXpLeaderboardService,
    LeaderboardSnapshotService,
    LeaderboardRolloverService,
    LeaderboardJobsService,
    LeaderboardHooks,
    BoardCatchUpService,
  ],
  exports: [
    AllTimeLeaderboardService,
    DailyLeaderboardService,
    LeaderboardSnapshotService,
    LeaderboardJobsService,
    BoardCatchUpService,
  ],
})
export class LeaderboardModule {}
