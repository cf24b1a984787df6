import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger as Pino } from 'pino';
import type { AppEnv } from '../../config/env';

/** The request a line is written for, while its handler runs (request-log.ts enters it where that is cheap). */
export const requestContext = new AsyncLocalStorage<{ reqId: string }>();

/**
 * Whether this runtime carries an AsyncLocalStorage's store at no cost to promises. Node 24 carries it in V8's
 * continuation data (AsyncContextFrame); older runtimes use promise hooks, which once enabled run JavaScript on every
 * promise the process creates and turn off V8's fast `await`: a submission cost about 15 % more CPU on Node 20
 * (docs/decisions/0051-request-context-where-cheap.md). The hook-based implementation is the one whose prototype has
 * `_propagate`; `app-logger.spec.ts` pins which runtimes that is.
 */
export const REQUEST_CONTEXT_IS_CHEAP = !('_propagate' in AsyncLocalStorage.prototype);

/**
 * The one pino logger of the process: JSON lines, the level from LOG_LEVEL, every line written while a request is
 * handled carrying its `reqId` (a mixin reads the request context: no child logger per request), the credentials a
 * request carries redacted wherever they appear.
 */
export function createRootLogger(env: AppEnv, destination?: DestinationStream): Pino {
  const options: pino.LoggerOptions = {
    level: env.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-hub-signature-256"]'],
      censor: '[redacted]',
    },
    // A fresh object per line: pino merges each line's fields into what the mixin returns.
    mixin: () => {
      const context = requestContext.getStore();
      return context ? { reqId: context.reqId } : {};
    },
    ...(env.logPretty
      ? { transport: { target: 'pino-pretty', options: { singleLine: true, ignore: 'pid,hostname' } } }
      : {}),
  };
  return destination ? pino(options, destination) : pino(options);
}

type Level = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** Nest's start-up chatter: one line per module, controller and route (~130 lines), useful only when debugging. */
const BOOT_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/** Nest's exception handlers call `error(message, stack)`: the stack is a string that starts a line with "at". */
function isStack(value: unknown): value is string {
  return typeof value === 'string' && /\n\s*at /.test(value);
}

/**
 * Nest's LoggerService over the root logger. `new Logger('Context').warn({ uid }, 'message')` reaches here as
 * `warn({ uid }, 'message', 'Context')` and is written as `{ context, uid, msg: 'message' }`; an Error becomes `err`.
 * Nest's own start-up `log` lines go to debug.
 */
export class AppLogger implements LoggerService {
  constructor(readonly root: Pino) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    this.write(typeof context === 'string' && BOOT_CONTEXTS.has(context) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.root.isLevelEnabled(level)) return;
    // The last parameter is the context Nest's Logger adds; what is between is pino's format arguments.
    const fields: Record<string, unknown> = {};
    let args = params;
    if (params.length > 0) {
      fields.context = params[params.length - 1];
      args = params.slice(0, -1);
    }
    if (typeof message === 'object' && message !== null) {
      if (message instanceof Error) fields.err = message;
      else Object.assign(fields, message);
      this.root[level](fields, ...(args as []));
    } else if (level === 'error' && typeof message === 'string' && args.length === 1 && isStack(args[0])) {
      const err = new Error(message);
      err.stack = args[0];
      this.root.error({ ...fields, err });
    } else {
      this.root[level](fields, String(message), ...(args as []));
    }
  }
}
