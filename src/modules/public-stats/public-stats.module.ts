import { Module } from '@nestjs/common';
import { PublicStatsController } from './public-stats.controller';
import { PublicStatsRepository } from './public-stats.repository';
import { PublicStatsService } from './public-stats.service';

@Module({
  controllers: [PublicStatsController],
  providers: [PublicStatsRepository, PublicStatsService],
})
export class PublicStatsModule {}
