import type { FastifyInstance } from 'fastify';
import type { Logger as Pino } from 'pino';
import { REQUEST_CONTEXT_IS_CHEAP, requestContext } from './app-logger';

/** Probes and scrapes arrive every few seconds from every orchestrator: their successes are debug lines. */
const QUIET_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/**
 * One line per request, written when the response is sent: `{ reqId, req: { id, method, url, remoteAddress },
 * res: { statusCode }, responseTime }`, at error level for a 5xx, debug for a successful probe, info otherwise. No
 * header is logged (so no token, key or cookie can leak). With `context` (the default where the runtime carries it
 * cheaply: Node 24) the handler runs inside the request's context, so every line it (or a service it calls) writes
 * carries the same `reqId`; elsewhere the request's own line and its error lines carry it (error-response.ts).
 */
export function installRequestLogging(
  fastify: FastifyInstance,
  root: Pino,
  { context = REQUEST_CONTEXT_IS_CHEAP }: { context?: boolean } = {},
): void {
  if (context) {
    fastify.addHook('preHandler', (request, _reply, done) => {
      requestContext.run({ reqId: request.id }, done);
    });
  }
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const level = status >= 500 ? 'error' : status < 400 && QUIET_PATHS.has(request.url) ? 'debug' : 'info';
    if (root.isLevelEnabled(level)) {
      root[level](
        {
          reqId: request.id,
          req: {
            id: request.id,
            method: request.method,
            url: request.url,
            remoteAddress: request.socket.remoteAddress,
          },
          res: { statusCode: status },
          responseTime: Math.round(reply.elapsedTime),
        },
        status >= 500 ? 'request errored' : 'request completed',
      );
    }
    done();
  });
}
