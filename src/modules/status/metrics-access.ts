import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppEnv } from '../../config/env';

export type MetricsAccess = 'allowed' | 'unauthorized' | 'hidden';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Constant-time comparison of `Authorization: Bearer <token>` (hashing first hides the token's length too). */
export function hasMetricsToken(authorization: string | undefined, token: string): boolean {
  const header = authorization?.trim() ?? '';
  if (!header.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}

/**
 * Who may read `/metrics` (it lists routes, status counts and process internals, so it is not public):
 * - `METRICS_TOKEN` set: callers presenting it, on whichever port serves metrics;
 * - on the API port without a token: nobody when `METRICS_PORT` moves metrics elsewhere, and in production
 *   (the safe default: set one of the two to expose metrics); everybody in dev mode.
 * `hidden` answers like an unknown route, so the API port does not advertise the endpoint.
 */
export function metricsAccess(
  env: Pick<AppEnv, 'mode' | 'metrics'>,
  authorization: string | undefined,
  onMetricsPort: boolean,
): MetricsAccess {
  const { token, port } = env.metrics;
  if (token !== undefined) return hasMetricsToken(authorization, token) ? 'allowed' : 'unauthorized';
  if (onMetricsPort) return 'allowed';
  if (port !== undefined || env.mode !== 'dev') return 'hidden';
  return 'allowed';
}
