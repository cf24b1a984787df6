import type { Server } from 'node:http';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { collectProcessMetrics } from './process-metrics';
import { StatusRepository, type JobRunFacts } from './status.repository';
import { CacheStatsRegistry } from '../../common/cache-stats';

/**
 * Statuses a failed authentication answers with (docs/decisions/0014-bad-authentication-counter.md), 404 aside: see
 * below.
 */
function isBadAuthStatus(status: number): boolean {
  return status === 401 || (status >= 470 && status <= 479);
}

/**
 * Prometheus metrics. The hot path (`observe`, once per response) only bumps in-memory counters; everything that
 * needs a query or a pool's state is read when Prometheus scrapes.
 */
@Injectable()
export class MetricsService implements OnModuleDestroy {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  /** The separate metrics server (`METRICS_PORT`), when one runs. */
  exposedOn: Server | null = null;
  readonly submissions = new Counter({
    name: 'result_submissions_total',
    help:
      'POST /results answers by outcome: the HTTP status (200 saved, 460-466 refused, ...), or for the anti-cheat ' +
      '"<status>:<check>" (e.g. 463:speed, 465:variation) and "held:<check>" (saved, held for review)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: 'http_rate_limited_total',
    help: '429 answers (rate limits and bad-authentication bans) by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });
  // 404 is left out: an unknown ApeKey or user cannot be told from an unknown URL by status alone.
  readonly badAuth = new Counter({
    name: 'http_bad_authentication_total',
    help: 'Answers of the authentication step that count as bad authentication (401, 470-479) by status',
    labelNames: ['status'] as const,
    registers: [this.registry],
  });
  readonly dependencyErrors = new Counter({
    name: 'dependency_errors_total',
    help: "'error' events of the Redis client and the PostgreSQL pool",
    labelNames: ['dependency'] as const,
    registers: [this.registry],
  });

  private readonly stopProcessMetrics: () => void;

  constructor(
    private readonly status: StatusRepository,
    private readonly caches: CacheStatsRegistry,
  ) {
    this.stopProcessMetrics = collectProcessMetrics(this.registry);
    this.registerScrapeGauges();
  }

  onModuleDestroy(): void {
    this.stopProcessMetrics();
  }

  /** `outcome`: the handler's own label for a result submission (see submission-outcome.ts). */
  observe(method: string, route: string, status: number, seconds: number, outcome?: string): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
    const submission = route === '/results' && method === 'POST';
    if (submission) this.submissions.inc({ outcome: outcome ?? String(status) });
    if (status < 400) return;
    if (status === 429) this.rateLimited.inc({ route });
    else if (isBadAuthStatus(status)) this.badAuth.inc({ status: String(status) });
  }

  dependencyError(dependency: 'redis' | 'postgres'): void {
    this.dependencyErrors.inc({ dependency });
  }

  private registerScrapeGauges(): void {
    const caches = this.caches;
    new Counter({
      name: 'cache_lookups_total',
      help: 'Lookups of the verified-token and verified-ApeKey caches by result (hit rate = hit / all)',
      labelNames: ['cache', 'result'] as const,
      registers: [this.registry],
      collect() {
        // The owners count in plain fields (no label lookup per request); copied here at scrape time.
        this.reset();
        for (const [cache, stats] of [
          ['token', caches.token],
          ['apeKey', caches.apeKey],
        ] as const) {
          this.inc({ cache, result: 'hit' }, stats.hits);
          this.inc({ cache, result: 'miss' }, stats.misses);
        }
      },
    });
    const status = this.status;
    const pool = (
      name: string,
      help: string,
      pick: (p: { total: number; idle: number; waiting: number }) => number,
    ) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          const facts = status.pool();
          if (facts) this.set(pick(facts));
        },
      });
    pool('pg_pool_connections', 'PostgreSQL pool: open connections', (p) => p.total);
    pool('pg_pool_idle_connections', 'PostgreSQL pool: idle connections', (p) => p.idle);
    pool('pg_pool_waiting_requests', 'PostgreSQL pool: queries waiting for a connection', (p) => p.waiting);

    new Gauge({
      name: 'result_review_queue_length',
      help: "Results held for review (above their mode's plausibility ceiling), waiting for a moderator",
      registers: [this.registry],
      async collect() {
        // A failing database leaves the last value rather than failing the scrape.
        const held = await status.heldResults().catch(() => null);
        if (held !== null) this.set(held);
      },
    });

    // Both gauges come from one query; the registry collects metrics concurrently, so share the pending read.
    let pending: Promise<JobRunFacts[]> | null = null;
    const runs = () =>
      (pending ??= status
        .lastJobRuns()
        // A failing database leaves the last values rather than failing the scrape.
        .catch(() => [])
        .finally(() => (pending = null)));
    new Gauge({
      name: 'job_last_success_timestamp_seconds',
      help: 'When each scheduled job last finished a period (any replica), Unix seconds',
      labelNames: ['job'] as const,
      registers: [this.registry],
      async collect() {
        for (const run of await runs()) this.set({ job: run.job }, run.finishedAt / 1000);
      },
    });
    new Gauge({
      name: 'job_last_duration_seconds',
      help: 'How long the last finished run of each scheduled job took (jobs that record it)',
      labelNames: ['job'] as const,
      registers: [this.registry],
      async collect() {
        for (const run of await runs()) if (run.ms !== null) this.set({ job: run.job }, run.ms / 1000);
      },
    });
  }
}
