import { HttpException, Logger } from '@nestjs/common';
import { AppError } from '../app-error';

/**
 * The one place that decides whether an error means "a store (PostgreSQL or Redis) is unreachable or overloaded":
 * those answer 503 `Service temporarily unavailable` (the client may retry), never 500. Everything else is left to
 * the exception filter as before.
 */
export const STORE_UNAVAILABLE_MESSAGE = 'Service temporarily unavailable';

/** Socket-level failures of either store. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** Messages of the pg driver and pool, and of ioredis, when the connection is gone or never came. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Query read timeout',
  'Client has encountered a connection error',
  'Connection is closed',
  "Stream isn't writeable",
  'Command timed out',
  'Reached the max retries per request limit',
  // Redis Cluster: slots without a serving master, a slot moving mid-command, no node answering the slot map.
  'CLUSTERDOWN',
  'TRYAGAIN',
  "Cluster isn't ready",
  'Failed to refresh slots cache',
  'Too many Cluster redirections',
];

/**
 * Redirections the Cluster client could not follow: a `MOVED`/`ASK` reply only reaches us when the node owning the
 * slot is unreachable (the client was sent back to it until it gave up), i.e. part of the cluster is down.
 */
const REDIRECTION = /^(MOVED|ASK) \d+ \S+$/;

/** ioredis and our own error classes that only occur when Redis is unreachable. */
const STORE_ERROR_NAMES = new Set([
  'MaxRetriesPerRequestError',
  'RedisUnavailableError',
  'ClusterAllFailedError',
]);

/**
 * PostgreSQL SQLSTATEs: class 08 (connection exception), 57P01-57P03 (admin/crash shutdown, cannot connect now),
 * class 53 (insufficient resources: too many connections, out of memory or disk), 57014 (statement_timeout hit:
 * the database is too slow right now).
 */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code.startsWith('53') ||
    code === '57014'
  );
}

export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  // Our own answers (and the framework's) keep their status, whatever their message says.
  if (error instanceof AppError || error instanceof HttpException) return false;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.name === 'string' && STORE_ERROR_NAMES.has(e.name)) return true;
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code)) return true;
    // SQLSTATEs are five characters; a Node error code is longer and starts with E.
    if (/^[0-9A-Z]{5}$/.test(e.code) && isUnavailableSqlState(e.code)) return true;
  }
  if (typeof e.message === 'string' && CONNECTION_MESSAGES.some((m) => (e.message as string).includes(m)))
    return true;
  if (typeof e.message === 'string' && REDIRECTION.test(e.message)) return true;
  // AggregateError (e.g. both IPv4 and IPv6 refused) and wrapped causes.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isStoreUnavailable(inner, depth + 1))) return true;
  return e.cause !== undefined && isStoreUnavailable(e.cause, depth + 1);
}

const logger = new Logger('StoreOutage');
/** At most one log line per interval: an outage fails every request, the log should not drown in it. */
const LOG_INTERVAL_MS = 5_000;
let lastLogged = 0;
let suppressed = 0;

/** The 503 answer to a store outage, logged (throttled) with the cause so operators see which store is down. */
export function storeUnavailableResponse(error: unknown): {
  status: 503;
  body: { message: string; data: null };
} {
  const now = Date.now();
  if (now - lastLogged >= LOG_INTERVAL_MS) {
    const e = error as { message?: unknown; code?: unknown; name?: unknown };
    logger.warn(
      { err: { name: e.name, code: e.code, message: e.message }, suppressed },
      'store unavailable: 503',
    );
    lastLogged = now;
    suppressed = 0;
  } else {
    suppressed += 1;
  }
  return { status: 503, body: { message: STORE_UNAVAILABLE_MESSAGE, data: null } };
}
