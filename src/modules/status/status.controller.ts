import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public, RateLimit, SkipMaintenance } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import { APP_ENV, type AppEnv } from '../../config/env';
import { MetricsService } from './metrics.service';

const STARTED_AT = Date.now();

function versionFor(env: AppEnv): string {
  if (env.mode === 'dev') return 'DEVELOPMENT-VERSION';
  const d = new Date(STARTED_AT);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}.${pad(d.getUTCMonth() + 1)}.${pad(d.getUTCDate())}_${pad(d.getUTCHours())}.${pad(d.getUTCMinutes())}_${env.commitHash}`;
}

@ApiTags('status')
@Controller()
export class StatusController {
  private readonly version: string;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(APP_ENV) env: AppEnv,
  ) {
    this.version = versionFor(env);
  }

  /** API status: process uptime in milliseconds and the build version. */
  @Get()
  @Public()
  @RateLimit('status')
  getStatus() {
    return ok('ok', { uptime: Date.now() - STARTED_AT, version: this.version });
  }

  /** Prometheus text exposition; still served in maintenance mode, when operators watch most closely. */
  @Get('metrics')
  @Public()
  @SkipMaintenance()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  async getMetrics(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}
