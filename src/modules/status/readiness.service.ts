import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { StatusRepository } from './status.repository';

/** A readiness probe must answer well within an orchestrator's own timeout (Docker's is 3 s). */
export const READINESS_TIMEOUT_MS = 1_000;

export interface Readiness {
  ready: boolean;
  /** What is wrong, for the 503 message ("draining", "postgres: timeout", ...). */
  problems: string[];
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Whether this process should receive traffic: PostgreSQL and Redis answer, and it is not shutting down. Draining
 * is one-way: once a SIGTERM marked it, the load balancer takes the replica out before the server closes.
 */
@Injectable()
export class ReadinessService {
  private draining = false;

  constructor(
    private readonly repository: StatusRepository,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  startDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async check(timeoutMs = READINESS_TIMEOUT_MS): Promise<Readiness> {
    const problems: string[] = [];
    if (this.draining) problems.push('draining');
    const [postgres, redis] = await Promise.allSettled([
      withTimeout(this.repository.ping(), timeoutMs),
      // A disconnected client would queue the PING until it reconnects: answer at once instead.
      this.redis.status === 'ready'
        ? withTimeout(this.redis.ping(), timeoutMs)
        : Promise.reject(new Error(`connection ${this.redis.status}`)),
    ]);
    if (postgres.status === 'rejected') problems.push(`postgres: ${(postgres.reason as Error).message}`);
    if (redis.status === 'rejected') problems.push(`redis: ${(redis.reason as Error).message}`);
    return { ready: problems.length === 0, problems };
  }
}
