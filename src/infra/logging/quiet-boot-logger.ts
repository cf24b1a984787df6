import type { LoggerService } from '@nestjs/common';
import type { Logger } from 'nestjs-pino';

/** Nest's start-up chatter: one line per module, controller and route (~130 lines), useful only when debugging. */
const BOOT_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/** The application's logger, with Nest's own start-up `log` lines moved to debug. */
export class QuietBootLogger implements LoggerService {
  constructor(private readonly inner: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = params[params.length - 1];
    if (typeof context === 'string' && BOOT_CONTEXTS.has(context)) this.inner.debug(message, ...params);
    else this.inner.log(message, ...params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug(message, ...params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose(message, ...params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.inner.fatal(message, ...params);
  }
}
