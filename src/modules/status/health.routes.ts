import { Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ReadinessService } from './readiness.service';

export const LIVENESS_PATH = '/livez';
export const READINESS_PATH = '/readyz';

/**
 * Orchestrator probes, mounted on Fastify directly rather than as Nest routes: the global guard would put them
 * behind maintenance mode, rate limits, bad-auth bans and a configuration read from PostgreSQL — exactly what a
 * probe must not depend on. Both are public and read nothing from the request.
 */
@Injectable()
export class HealthRoutes implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly readiness: ReadinessService,
  ) {}

  onModuleInit(): void {
    // Absent in an application context without HTTP (the operator CLI).
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.get(LIVENESS_PATH, async () => ({ message: 'ok', data: null }));
    fastify.get(READINESS_PATH, async (_request, reply) => {
      const { ready, problems } = await this.readiness.check();
      if (ready) return { message: 'ready', data: null };
      return reply.code(503).send({ message: `Not ready: ${problems.join('; ')}`, data: null });
    });
  }
}
