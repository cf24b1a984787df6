import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import { ReadinessService } from '../../modules/status/readiness.service';

export interface ShutdownOptions {
  /** How long /readyz answers 503 before the server stops accepting: the load balancer's time to notice. */
  graceMs: number;
  /** After the grace, how long in-flight requests and jobs get before the process gives up on them. */
  closeTimeoutMs?: number;
  log: Logger;
  exit: (code: number) => void;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The shutdown sequence for SIGTERM/SIGINT: mark not ready, wait the grace, close the application (Fastify stops
 * accepting and finishes in-flight requests, jobs stop, pools close), exit 0. A second signal exits 1 at once.
 * Returns the handler so tests can drive it without sending signals.
 */
export function gracefulShutdown(
  app: INestApplication,
  options: ShutdownOptions,
): (signal: string) => Promise<void> {
  const { graceMs, closeTimeoutMs = 30_000, log, exit } = options;
  let stopping = false;
  return async (signal: string) => {
    if (stopping) {
      log.warn({ signal }, 'second signal during shutdown: exiting now');
      exit(1);
      return;
    }
    stopping = true;
    app.get(ReadinessService).startDraining();
    log.info({ signal, graceMs }, 'shutdown requested: not ready, draining');
    await sleep(graceMs);
    const started = Date.now();
    const timer = setTimeout(() => {
      log.error({ closeTimeoutMs }, 'shutdown did not finish in time: exiting');
      exit(1);
    }, closeTimeoutMs);
    timer.unref();
    try {
      await app.close();
      clearTimeout(timer);
      log.info({ closeMs: Date.now() - started }, 'shutdown complete');
      exit(0);
    } catch (e) {
      clearTimeout(timer);
      log.error({ err: (e as Error).message }, 'shutdown failed');
      exit(1);
    }
  };
}
