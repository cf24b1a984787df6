import { Inject, Injectable } from '@nestjs/common';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';

/**
 * Which replicas are alive (a heartbeat each, in one sorted set) and which connections each holds (player id to the
 * room it is in): what another replica needs to take the players of a dead one out of their rooms, and what the
 * online count is made of.
 */
@Injectable()
export class TribePresenceRepository {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** Records a heartbeat; true when the replica was not listed (first beat, or counted dead meanwhile). */
  async heartbeat(replicaId: string, now: number): Promise<boolean> {
    return (await this.redis.zadd(redisKeys.tribeIndex().replicas, now, replicaId)) === 1;
  }

  async register(replicaId: string, playerId: string, roomId: string | null): Promise<void> {
    await this.redis.hset(redisKeys.tribeReplica(replicaId), playerId, roomId ?? '');
  }

  async unregister(replicaId: string, playerId: string): Promise<void> {
    await this.redis.hdel(redisKeys.tribeReplica(replicaId), playerId);
  }

  /** The connections a replica registered: player id to room id ('' in none). */
  async connections(replicaId: string): Promise<Record<string, string>> {
    return this.redis.hgetall(redisKeys.tribeReplica(replicaId));
  }

  async replicas(aliveSince: number): Promise<{ alive: string[]; dead: string[] }> {
    const key = redisKeys.tribeIndex().replicas;
    const [alive, dead] = await Promise.all([
      this.redis.zrangebyscore(key, aliveSince, '+inf'),
      this.redis.zrangebyscore(key, '-inf', `(${aliveSince}`),
    ]);
    return { alive, dead };
  }

  /** Connections held by these replicas. */
  async count(replicaIds: string[]): Promise<number> {
    const sizes = await Promise.all(replicaIds.map((id) => this.redis.hlen(redisKeys.tribeReplica(id))));
    return sizes.reduce((a, b) => a + b, 0);
  }

  /** Takes a lock for `ttlMs` (it is never released early: the work it guards is idempotent). */
  async lock(what: string, owner: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(redisKeys.tribeLock(what), owner, 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** A replica that is gone for good: its list of connections and its heartbeat. */
  async forget(replicaId: string): Promise<void> {
    await this.redis.del(redisKeys.tribeReplica(replicaId));
    await this.redis.zrem(redisKeys.tribeIndex().replicas, replicaId);
  }
}
