import { Module } from '@nestjs/common';
import { DependencyEvents } from './dependency-events';
import { HealthRoutes } from './health.routes';
import { MetricsService } from './metrics.service';
import { ReadinessService } from './readiness.service';
import { StatusController } from './status.controller';
import { StatusRepository } from './status.repository';

@Module({
  controllers: [StatusController],
  providers: [StatusRepository, MetricsService, ReadinessService, HealthRoutes, DependencyEvents],
  exports: [MetricsService, ReadinessService],
})
export class StatusModule {}
