import { CompiledResponse } from '../../common/http/compiled-response.decorator';
import { Controller, Get, Headers, Inject, NotFoundException, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AppError, MESSAGES } from '../../common/app-error';
import { Public, RateLimit, SelfAuthenticated, SkipMaintenance } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import { APP_ENV, type AppEnv } from '../../config/env';
import { metricsAccess } from './metrics-access';
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
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {
    this.version = versionFor(env);
  }

  /** API status: process uptime in milliseconds and the build version. */
  @Get()
  @Public()
  @RateLimit('status')
  @CompiledResponse()
  getStatus() {
    return ok('ok', { uptime: Date.now() - STARTED_AT, version: this.version });
  }

  /**
   * Prometheus text exposition, for operators only (see `metricsAccess`). The route checks its own bearer token, so
   * the guard must not read the header as an ID token. Still served in maintenance mode, when operators watch most
   * closely.
   */
  @Get('metrics')
  @ApiProduces('text/plain')
  @ApiOkResponse({
    description: 'Prometheus text exposition (not the JSON envelope).',
    content: {
      'text/plain': { schema: { type: 'string' }, example: 'process_cpu_user_seconds_total 0.5\n' },
    },
  })
  @SelfAuthenticated()
  @SkipMaintenance()
  async getMetrics(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const access = metricsAccess(this.env, authorization, false);
    // Answered like an unknown route: the API port does not advertise the endpoint.
    if (access === 'hidden') throw new NotFoundException();
    if (access === 'unauthorized') throw new AppError(401, MESSAGES.unauthorized);
    const text = await this.metrics.registry.metrics();
    // Set here, not with @Header: an error answer must keep its JSON content type.
    void reply.header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
    return text;
  }
}
