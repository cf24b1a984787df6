import type pg from 'pg';
import type { DatasetSize } from '../lib/dataset';
import { runLoad, type LoadResult, type PlannedRequest } from '../lib/load';
import type { ServerProcess } from '../lib/server-process';
import type { BenchIssuer } from '../lib/tokens';

export type ServerKind = 'ours' | 'baseline';

export interface BenchContext {
  size: DatasetSize;
  issuer: BenchIssuer;
  /** The bench's own connection to the seeded database (picking users, clearing its own ApeKeys). */
  pool: pg.Pool;
  /** The seeded Redis (the runner writes the weekly XP boards there before scenario 3). */
  redisUrl: string;
  servers: Record<ServerKind, ServerProcess>;
  /** The embedded PostgreSQL's postmaster (its CPU per request is reported), null for an external server. */
  postgresPid: number | null;
  connections: number;
  /** Seconds per read scenario. */
  duration: number;
  /** Requests of scenario 1, per server (one per user). */
  submitRequests: number;
  /** Restarts the embedded PostgreSQL the run started (undefined: attached to a running or external one). */
  restartPostgres?: () => Promise<void>;
  /**
   * CPU profiler of a server (ours, or the baseline for scenario 1's floor), switched on around a measured run
   * (--profile); writes `<name>`'s file.
   */
  profiler?: {
    start(server: ServerProcess): Promise<void>;
    stop(server: ServerProcess, name: string): Promise<void>;
  };
  log: (line: string) => void;
}

/** One line of the report. `result` null: the scenario could not run (`note` says why). */
export interface ScenarioRow {
  id: string;
  scenario: string;
  server: ServerKind;
  result: LoadResult | null;
  /** For scenario 6: seconds of one rebuild. */
  seconds?: number;
  /** For scenario 10: the server's RSS just before the export (MB), to tell flat from growing. */
  rssBeforeMb?: number;
  /** For scenario 9: the results collection's import rate and the import process's peak RSS. */
  importFigures?: { resultsPerSecond: number; peakRssMb: number };
  note?: string;
}

export function notAvailable(id: string, scenario: string, server: ServerKind, note: string): ScenarioRow {
  return { id, scenario, server, result: null, note };
}

/** Status of one request; used to find out whether a route exists on this build. */
export async function probe(
  server: ServerProcess,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${server.url}${path}`, { headers });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, body };
}

/** Round robin over a list. */
export function cycle<T>(items: T[]): () => T {
  if (items.length === 0) throw new Error('nothing to cycle over');
  let i = 0;
  return () => items[i++ % items.length] as T;
}

/** Requests that prepare a scenario (not measured); any failure stops the run with the statuses seen. */
export async function warm(
  context: BenchContext,
  server: ServerProcess,
  amount: number,
  next: () => PlannedRequest,
): Promise<void> {
  const result = await runLoad({
    url: server.url,
    pid: server.pid,
    connections: context.connections,
    amount,
    next,
  });
  if (result.errors > 0) {
    throw new Error(
      `warm-up failed: ${JSON.stringify(result.statuses)} ${JSON.stringify(result.errorSamples)}`,
    );
  }
}

/**
 * Gets every token into the server's token cache with one cheap authenticated read each, so a scenario measures
 * the steady state (a user's token is verified once, then served from the cache for its hour).
 */
export async function warmTokens(
  context: BenchContext,
  server: ServerProcess,
  tokens: string[],
): Promise<void> {
  const next = cycle(tokens);
  await warm(context, server, tokens.length, () => ({
    method: 'GET',
    path: '/users/streak',
    headers: { authorization: `Bearer ${next()}` },
  }));
}

/** A load run that must not fail silently: the row carries its error count and the statuses behind it. */
export async function measured(
  context: BenchContext,
  server: ServerProcess,
  shape: { amount?: number; next: () => PlannedRequest; profile?: string },
): Promise<LoadResult> {
  if (shape.amount === undefined) {
    // Timed reads start with an unmeasured second or two of the same requests: the first scenario after start-up
    // would otherwise also measure the JIT compiling the route and the pools opening connections.
    await runLoad({
      url: server.url,
      pid: server.pid,
      connections: context.connections,
      duration: Math.min(2, context.duration),
      next: shape.next,
    });
  }
  const profiler = shape.profile === undefined ? undefined : context.profiler;
  await profiler?.start(server);
  const result = await runLoad({
    url: server.url,
    pid: server.pid,
    postgresPid: context.postgresPid,
    connections: context.connections,
    amount: shape.amount,
    duration: shape.amount === undefined ? context.duration : undefined,
    next: shape.next,
  });
  await profiler?.stop(server, shape.profile as string);
  return result;
}
