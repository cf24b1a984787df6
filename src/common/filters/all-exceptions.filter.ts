import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { toErrorResponse } from './error-response';
import { isStoreUnavailable, storeUnavailableResponse } from './store-errors';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    // A store outage is a degraded mode the client can retry, never a 500
    // (docs/decisions/0022-store-outages-degrade.md).
    const { status, body } = isStoreUnavailable(exception)
      ? storeUnavailableResponse(exception)
      : toErrorResponse(exception, request);
    void reply.status(status).send(body);
  }
}
