import { RequestMethod } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Params } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import type { AppEnv } from '../../config/env';

/**
 * nestjs-pino's own default route pattern (`{/*splat}`) only ever matched `/` behind the Fastify adapter's
 * middleware matcher, so every other request went unlogged and ran without a request-scoped logger. `{*path}`
 * (optional wildcard) matches `/` and every other path, unknown routes included.
 */
export const LOGGED_ROUTES = [{ path: '{*path}', method: RequestMethod.ALL }];

const QUIET_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/** The one logger configuration of the service: one line per request, request id on every line made inside it. */
export function loggerParams(env: AppEnv, destination?: DestinationStream): Params {
  const options: NonNullable<Params['pinoHttp']> = {
    level: env.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-hub-signature-256"]'],
      censor: '[redacted]',
    },
    // Request lines carry no headers at all (so no token, key or cookie can leak), only what operators use.
    serializers: {
      req: (req: { id: unknown; method: string; url: string; remoteAddress?: string }) => ({
        id: req.id,
        method: req.method,
        url: req.url,
        remoteAddress: req.remoteAddress,
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
    // The id was chosen by Fastify (requestIdOf) before any middleware ran; never make a second one.
    genReqId: (req: IncomingMessage & { id?: unknown }) => req.id as string,
    // Probes and scrapes arrive every few seconds from every orchestrator: their successes are debug lines.
    customLogLevel: (req, res, err) => {
      if (err || res.statusCode >= 500) return 'error';
      return res.statusCode < 400 && QUIET_PATHS.has(req.url ?? '') ? 'debug' : 'info';
    },
    quietReqLogger: true,
    ...(env.logPretty
      ? { transport: { target: 'pino-pretty', options: { singleLine: true, ignore: 'pid,hostname' } } }
      : {}),
  };
  return {
    pinoHttp: destination ? [options, destination] : options,
    forRoutes: LOGGED_ROUTES,
  };
}
