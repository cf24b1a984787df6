import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { redisKeys } from '../../../infra/redis/keys';
import { REDIS, type Redis } from '../../../infra/redis/redis';

const MINUTE = 60_000;
const HOUR = 3_600_000;
/** How often a replica adds its counts to Redis: the rates lag by at most this much. */
export const OUTCOME_FLUSH_MS = 10_000;

/** Refusals and holds of one check, per submission judged, over a window. */
export interface CheckRate {
  check: string;
  refused: number;
  held: number;
  /** Refused per submission judged in the window (0 when none was). */
  refusalRate: number;
}

export interface OutcomeRates {
  lastHour: { submissions: number; checks: CheckRate[] };
  lastDay: { submissions: number; checks: CheckRate[] };
}

/**
 * Counts what became of each judged submission (`accepted`, `held:<check>`, `<status>:<check>`), per minute and per
 * hour in Redis across replicas, so an operator sees a check's refusal rate over the last hour and day (GET /admin,
 * CLI `results rates`) and a jump in it (a false positive coming) before users report lost results. Counted in
 * process and flushed every OUTCOME_FLUSH_MS: the submission pays a map increment, not a Redis round trip. Redis
 * unreachable: the counts of that flush are dropped (a rate, not a record); Prometheus' `result_submissions_total`
 * keeps the per-replica totals.
 */
@Injectable()
export class SubmissionOutcomesService implements OnModuleDestroy {
  private readonly logger = new Logger(SubmissionOutcomesService.name);
  /** Counts not yet in Redis, by minute (since the epoch) and outcome. */
  private pending = new Map<number, Map<string, number>>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    private readonly clock: Clock,
  ) {}

  record(outcome: string): void {
    const minute = Math.floor(this.clock.now() / MINUTE);
    let counts = this.pending.get(minute);
    if (!counts) this.pending.set(minute, (counts = new Map()));
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), OUTCOME_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Adds the counts kept in process to Redis (called by the timer, at shutdown, and by tests). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return;
    const pending = this.pending;
    this.pending = new Map();
    const pipeline = this.redis.pipeline();
    for (const [minuteIndex, counts] of pending) {
      const minute = redisKeys.submissionOutcomes('minute', minuteIndex);
      const hour = redisKeys.submissionOutcomes('hour', Math.floor((minuteIndex * MINUTE) / HOUR));
      for (const [outcome, n] of counts) {
        pipeline.hincrby(minute, outcome, n);
        pipeline.hincrby(hour, outcome, n);
      }
      pipeline.pexpire(minute, 2 * HOUR);
      pipeline.pexpire(hour, 26 * HOUR);
    }
    try {
      await pipeline.exec();
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'submission outcome counts not recorded');
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.flush();
  }

  /** The refusal and hold rates per check over the last 60 minutes and the last 24 hours (this hour included). */
  async rates(): Promise<OutcomeRates> {
    const now = this.clock.now();
    const minutes = Array.from({ length: 60 }, (_, i) =>
      redisKeys.submissionOutcomes('minute', Math.floor(now / MINUTE) - i),
    );
    const hours = Array.from({ length: 24 }, (_, i) =>
      redisKeys.submissionOutcomes('hour', Math.floor(now / HOUR) - i),
    );
    const pipeline = this.redis.pipeline();
    for (const key of [...minutes, ...hours]) pipeline.hgetall(key);
    const replies = (await pipeline.exec()) ?? [];
    const hashes = replies.map(([err, value]) => (err ? {} : (value as Record<string, string>)));
    return {
      lastHour: summarise(hashes.slice(0, minutes.length)),
      lastDay: summarise(hashes.slice(minutes.length)),
    };
  }
}

/** Totals of a window's hashes, as rates per check (anti-cheat refusals are `463:<check>`, `464:…`, `465:…`). */
export function summarise(hashes: Record<string, string>[]): OutcomeRates['lastHour'] {
  let submissions = 0;
  const byCheck = new Map<string, { refused: number; held: number }>();
  const of = (check: string) => {
    let entry = byCheck.get(check);
    if (!entry) byCheck.set(check, (entry = { refused: 0, held: 0 }));
    return entry;
  };
  for (const hash of hashes) {
    for (const [outcome, value] of Object.entries(hash)) {
      const n = Number(value);
      submissions += n;
      const [kind, check] = outcome.split(':', 2);
      if (check === undefined) continue;
      for (const name of check.split('+')) {
        if (kind === 'held') of(name).held += n;
        else of(name).refused += n;
      }
    }
  }
  const checks = [...byCheck]
    .map(([check, { refused, held }]) => ({
      check,
      refused,
      held,
      refusalRate: submissions === 0 ? 0 : refused / submissions,
    }))
    .sort((a, b) => b.refusalRate - a.refusalRate || a.check.localeCompare(b.check));
  return { submissions, checks };
}
