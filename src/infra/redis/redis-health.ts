import { Logger } from '@nestjs/common';
import type { Redis } from './redis';

export const REDIS_HEALTH = Symbol('REDIS_HEALTH');

/** Thrown instead of calling Redis while it is known to be unreachable; classified as a store outage (503). */
export class RedisUnavailableError extends Error {
  constructor() {
    super('Redis is unreachable');
    this.name = 'RedisUnavailableError';
  }
}

/**
 * Whether the shared Redis client is connected, from its own events. Degradable callers (rate limits, bad-auth
 * counter, board hooks, board reads) consult it so an outage costs them nothing per request; listeners of `onRecovered`
 * run when the connection comes back after having been lost (board catch-up).
 */
export class RedisHealth {
  private up: boolean;
  private wasLost = false;
  private closing = false;
  private readonly recovered: (() => void)[] = [];
  private readonly logger = new Logger(RedisHealth.name);

  constructor(client: Redis) {
    this.up = client.status === 'ready';
    client.on('ready', () => {
      this.up = true;
      if (!this.wasLost) return;
      this.wasLost = false;
      this.logger.log('Redis connection restored');
      for (const listener of this.recovered) listener();
    });
    const lost = () => {
      if (this.up && !this.closing)
        this.logger.warn('Redis connection lost: degraded mode (in-memory limits, boards catch up later)');
      this.up = false;
      this.wasLost = true;
    };
    client.on('close', lost);
    client.on('end', lost);
  }

  /** True while connected; false during an outage and before the first connection. */
  get available(): boolean {
    return this.up;
  }

  /** The process is shutting down: the connection closing is not an outage. */
  shutdown(): void {
    this.closing = true;
  }

  onRecovered(listener: () => void): void {
    this.recovered.push(listener);
  }
}
