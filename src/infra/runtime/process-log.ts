import pino, { type Logger } from 'pino';

/**
 * The log of an entry point before (and after) the application exists: start-up failures, "listening", shutdown.
 * Same JSON shape as the application's lines, one line per event.
 */
export function processLog(level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ level: pino.levels.values[level] !== undefined || level === 'silent' ? level : 'info' });
}
