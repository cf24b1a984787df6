import { Body, Controller, Delete, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  AcceptsApeKey,
  Auth,
  RateLimit,
  RequireFreshToken,
  RequirePremium,
} from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { HourOffsetDto, LeaderboardMemoryDto, PersonalBestsQueryDto } from './dto/stats.dto';
import { UserStatsService } from './user-stats.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';

@ApiTags('users')
@Controller('users')
export class UsersStatsController {
  constructor(private readonly stats: UserStatsService) {}

  /** All personal bests, or one mode's, or one mode2's list. */
  @Get('personalBests')
  @AcceptsApeKey()
  @RateLimit('userGet')
  async personalBests(@Auth() auth: AuthContext, @Query() query: PersonalBestsQueryDto) {
    return ok('Personal bests retrieved', await this.stats.personalBests(auth.uid, query.mode, query.mode2));
  }

  /** Contract facts U11: fresh token, as on the original (it cannot be undone). */
  @Delete('personalBests')
  @RequireFreshToken()
  @RateLimit('userClearPB')
  async clearPersonalBests(@Auth() auth: AuthContext) {
    await this.stats.clearPersonalBests(auth.uid);
    return ok("User's PB cleared");
  }

  /** The rank the original client last showed for a board (contract facts U7), returned in `GET /users`. */
  @Patch('leaderboardMemory')
  @RateLimit('userUpdateLBMemory')
  async leaderboardMemory(@Auth() auth: AuthContext, @Body() body: LeaderboardMemoryDto) {
    await this.stats.setLeaderboardMemory(auth.uid, body, body.rank);
    return ok('Leaderboard memory updated');
  }

  @Get('stats')
  @AcceptsApeKey()
  @RateLimit('userGet')
  async typingStats(@Auth() auth: AuthContext) {
    return ok('Personal stats retrieved', await this.stats.typingStats(auth.uid));
  }

  @Get('streak')
  @AcceptsApeKey()
  @RateLimit('userStreak')
  async streak(@Auth() auth: AuthContext) {
    return ok('Streak data retrieved', await this.stats.streak(auth.uid));
  }

  /** Spec "Streak hour offset": once only; also restarts the streak day count from now. */
  @Patch('streak/hourOffset')
  @RateLimit('setStreakHourOffset')
  @ApiFailure(403, 'Streak hour offset already set')
  async setHourOffset(@Auth() auth: AuthContext, @Body() body: HourOffsetDto) {
    await this.stats.setHourOffset(auth.uid, body.hourOffset);
    return ok('Streak hour offset set');
  }

  /** The spec's variant under the original platform's path (docs/decisions/0039-original-routes-and-aliases.md). */
  @Post(['streakHourOffset', 'setStreakHourOffset'])
  @RateLimit('setStreakHourOffset')
  @ApiFailure(403, 'Streak hour offset already set')
  async setHourOffsetAlias(@Auth() auth: AuthContext, @Body() body: HourOffsetDto) {
    return this.setHourOffset(auth, body);
  }

  /** Every year's daily test counts (premium). */
  @Get('testActivity')
  @RequirePremium()
  @RateLimit('userTestActivity')
  async testActivity(@Auth() auth: AuthContext) {
    return ok('Test activity data retrieved', await this.stats.testActivityByYear(auth.uid));
  }

  @Get('currentTestActivity')
  @AcceptsApeKey()
  @RateLimit('userCurrentTestActivity')
  async currentTestActivity(@Auth() auth: AuthContext) {
    return ok('Current test activity data retrieved', await this.stats.currentTestActivity(auth.uid));
  }
}
