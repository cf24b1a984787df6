import { Inject, Injectable } from '@nestjs/common';
import { redisKeys } from '../../../infra/redis/keys';
import { REDIS, type Redis } from '../../../infra/redis/redis';

/** The OAuth `state` handed to a user, kept in Redis so any replica can check it. */
@Injectable()
export class ChatStateRepository {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async save(uid: string, state: string, ttlSeconds: number): Promise<void> {
    await this.redis.set(redisKeys.chatOAuthState(uid), state, 'EX', ttlSeconds);
  }

  /** Reads and removes it in one step, so a state is good for one link attempt only. */
  async take(uid: string): Promise<string | null> {
    return this.redis.getdel(redisKeys.chatOAuthState(uid));
  }

  async discard(uid: string): Promise<void> {
    await this.redis.del(redisKeys.chatOAuthState(uid));
  }
}
