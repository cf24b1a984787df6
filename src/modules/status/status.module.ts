import { Module } from '@nestjs/common';
import { MetricsService } from './metrics.service';
import { StatusController } from './status.controller';

@Module({ controllers: [StatusController], providers: [MetricsService], exports: [MetricsService] })
export class StatusModule {}
