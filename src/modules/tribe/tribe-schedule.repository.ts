import { Inject, Injectable } from '@nestjs/common';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';

/** A schedule entry: a room's timer (`s:<room>`) or its progress ticks (`p:<room>`). */
export type ScheduleEntry = `s:${string}` | `p:${string}`;

export const timerEntry = (roomId: string): ScheduleEntry => `s:${roomId}`;
export const ticksEntry = (roomId: string): ScheduleEntry => `p:${roomId}`;

/**
 * When each room's timer and progress ticks are due, shared by every replica (one sorted set). A replica claims what
 * is due for a short lease, runs it, and settles it; an entry whose claimant died comes due again when the lease
 * ends, and the room's version check makes a step run twice change nothing the second time.
 */
@Injectable()
export class TribeScheduleRepository {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async schedule(entry: ScheduleEntry, at: number): Promise<void> {
    await this.redis.zadd(redisKeys.tribeIndex().schedule, at, entry);
  }

  /** The due entries (at most `limit`), each with when it was due, claimed until `leaseUntil`. */
  async claim(
    now: number,
    leaseUntil: number,
    limit: number,
  ): Promise<{ entry: ScheduleEntry; due: number }[]> {
    const flat = await this.redis.tribeScheduleClaim(redisKeys.tribeIndex().schedule, now, leaseUntil, limit);
    const claimed: { entry: ScheduleEntry; due: number }[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2)
      claimed.push({ entry: flat[i] as ScheduleEntry, due: Number(flat[i + 1]) });
    return claimed;
  }

  /** Reschedules (`next`) or drops (null) a claimed entry, unless someone rescheduled it since the claim. */
  async settle(entry: ScheduleEntry, lease: number, next: number | null): Promise<void> {
    await this.redis.tribeScheduleSettle(redisKeys.tribeIndex().schedule, entry, lease, next ?? '');
  }

  async size(): Promise<number> {
    return this.redis.zcard(redisKeys.tribeIndex().schedule);
  }
}
