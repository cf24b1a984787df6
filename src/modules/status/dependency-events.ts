import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DATABASE, poolOf, type Database } from '../../infra/database/database';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { MetricsService } from './metrics.service';

/** A dependency that is down emits an error per reconnect attempt: one log line per window is enough. */
export const ERROR_LOG_WINDOW_MS = 30_000;

/** Logs at most one line per window and says how many it held back. */
export class RateLimitedLog {
  private lastAt = -Infinity;
  private suppressed = 0;

  constructor(
    private readonly write: (fields: { err: string; suppressed: number }) => void,
    private readonly windowMs = ERROR_LOG_WINDOW_MS,
    private readonly now: () => number = Date.now,
  ) {}

  error(e: Error): void {
    const now = this.now();
    if (now - this.lastAt < this.windowMs) {
      this.suppressed++;
      return;
    }
    this.write({ err: e.message, suppressed: this.suppressed });
    this.lastAt = now;
    this.suppressed = 0;
  }
}

/**
 * The Redis client and the PostgreSQL pool report connection trouble as 'error' events. The clients' own no-op
 * listeners keep them from crashing the process; these make the trouble visible (log lines, a counter).
 */
@Injectable()
export class DependencyEvents implements OnModuleInit {
  private readonly logger = new Logger('Dependencies');

  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(REDIS) private readonly redis: Redis,
    private readonly metrics: MetricsService,
  ) {}

  onModuleInit(): void {
    const redisLog = new RateLimitedLog((f) =>
      this.logger.error(f, 'redis client error (REDIS_URL or REDIS_CLUSTER_NODES)'),
    );
    const onRedisError = (e: Error) => {
      this.metrics.dependencyError('redis');
      redisLog.error(e);
    };
    this.redis.on('error', onRedisError);
    // A Cluster client reports the trouble of one master as 'node error' (its own 'error' only when all fail).
    this.redis.on('node error', onRedisError);
    const pgLog = new RateLimitedLog((f) => this.logger.error(f, 'postgres pool error (DATABASE_URL)'));
    poolOf(this.db)?.on('error', (e: Error) => {
      this.metrics.dependencyError('postgres');
      pgLog.error(e);
    });
  }
}
