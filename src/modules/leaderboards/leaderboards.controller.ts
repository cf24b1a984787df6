import { CompiledResponse } from '../../common/http/compiled-response.decorator';
import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AcceptsApeKey,
  Auth,
  Public,
  RateLimit,
  RequireConfiguration,
} from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { AllTimeLeaderboardService } from './all-time-leaderboard.service';
import { BOARDS_UNAVAILABLE } from './board-availability';
import { FRIENDS_UNAVAILABLE } from './friends-scope';
import { DailyLeaderboardService, NO_DAILY_BOARD } from './daily-leaderboard.service';
import {
  BoardQuery,
  DailyPageQuery,
  DailyRankQuery,
  LeaderboardPageQuery,
  WeeklyPageQuery,
  WeeklyRankQuery,
} from './dto/leaderboard-queries';
import { WeeklyXpLeaderboardService } from './weekly-xp-leaderboard.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';

const DAILY_DISABLED = 'Daily leaderboards are not available at this time.';
const WEEKLY_DISABLED = 'Weekly XP leaderboards are not available at this time.';

/** Spec "Leaderboards". Every route shares one rate-limit class (leaderboard reads). */
@ApiTags('leaderboards')
@Controller('leaderboards')
export class LeaderboardsController {
  constructor(
    private readonly allTime: AllTimeLeaderboardService,
    private readonly daily: DailyLeaderboardService,
    private readonly weekly: WeeklyXpLeaderboardService,
  ) {}

  /** A page of an all-time board; `friendsOnly` needs a signed-in caller. */
  @Get()
  @Public()
  @RateLimit('leaderboardsGet')
  @ApiFailure(503, FRIENDS_UNAVAILABLE)
  @CompiledResponse()
  async allTimePage(@Auth() auth: AuthContext, @Query() query: LeaderboardPageQuery) {
    return ok('Leaderboard retrieved', await this.allTime.page(auth, query));
  }

  /** The caller's entry on an all-time board, or null when they are not on it. */
  @Get('rank')
  @AcceptsApeKey()
  @RateLimit('leaderboardsGet', 'leaderboardsGetApe')
  @ApiFailure(503, FRIENDS_UNAVAILABLE)
  @CompiledResponse()
  async allTimeRank(@Auth() auth: AuthContext, @Query() query: BoardQuery) {
    return ok('Rank retrieved', await this.allTime.rank(auth, query));
  }

  @Get('daily')
  @Public()
  @RateLimit('leaderboardsGet')
  @RequireConfiguration('dailyLeaderboards.enabled', DAILY_DISABLED)
  @ApiFailure(404, NO_DAILY_BOARD)
  @ApiFailure(503, BOARDS_UNAVAILABLE, FRIENDS_UNAVAILABLE)
  @CompiledResponse()
  async dailyPage(@Auth() auth: AuthContext, @Query() query: DailyPageQuery) {
    return ok('Daily leaderboard retrieved', await this.daily.page(auth, query));
  }

  @Get('daily/rank')
  @RateLimit('leaderboardsGet')
  @RequireConfiguration('dailyLeaderboards.enabled', DAILY_DISABLED)
  @ApiFailure(404, NO_DAILY_BOARD)
  @ApiFailure(503, BOARDS_UNAVAILABLE, FRIENDS_UNAVAILABLE)
  @CompiledResponse()
  async dailyRank(@Auth() auth: AuthContext, @Query() query: DailyRankQuery) {
    return ok('Daily leaderboard rank retrieved', await this.daily.rank(auth, query));
  }

  /** Spec: also served as `/leaderboards/weekly-xp`. */
  @Get(['xp/weekly', 'weekly-xp'])
  @Public()
  @RateLimit('leaderboardsGet')
  @RequireConfiguration('leaderboards.weeklyXp.enabled', WEEKLY_DISABLED)
  @ApiFailure(503, BOARDS_UNAVAILABLE, FRIENDS_UNAVAILABLE)
  @CompiledResponse()
  async weeklyPage(@Auth() auth: AuthContext, @Query() query: WeeklyPageQuery) {
    return ok('Weekly xp leaderboard retrieved', await this.weekly.page(auth, query));
  }

  @Get('xp/weekly/rank')
  @RateLimit('leaderboardsGet')
  @RequireConfiguration('leaderboards.weeklyXp.enabled', WEEKLY_DISABLED)
  @ApiFailure(503, BOARDS_UNAVAILABLE, FRIENDS_UNAVAILABLE)
  @CompiledResponse()
  async weeklyRank(@Auth() auth: AuthContext, @Query() query: WeeklyRankQuery) {
    return ok('Weekly xp leaderboard rank retrieved', await this.weekly.rank(auth, query));
  }
}
