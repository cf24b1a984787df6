import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public, RateLimit } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import { SpeedHistogramQueryDto } from './dto/speed-histogram.query';
import { PublicStatsService } from './public-stats.service';

@ApiTags('public')
@Controller('public')
export class PublicStatsController {
  constructor(private readonly stats: PublicStatsService) {}

  /** How many all-time board entries fall in each 10-wpm bucket. */
  @Get('speedHistogram')
  @Public()
  @RateLimit('publicStatsGet')
  async speedHistogram(@Query() query: SpeedHistogramQueryDto) {
    return ok(
      'Public speed histogram retrieved',
      await this.stats.speedHistogram(query.language, query.mode, query.mode2),
    );
  }

  /** Site-wide time typing and tests completed and started. */
  @Get('typingStats')
  @Public()
  @RateLimit('publicStatsGet')
  async typingStats() {
    return ok('Public typing stats retrieved', await this.stats.typingStats());
  }
}
