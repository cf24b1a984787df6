import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { FriendRow, TimePbRow } from './friends.types';

const USER_COLUMNS = [
  'users.uid',
  'users.name',
  'users.chat_id',
  'users.chat_avatar',
  'users.started_tests',
  'users.completed_tests',
  'users.time_typing',
  'users.xp',
  'users.streak_length',
  'users.streak_max_length',
  'users.last_result_at',
  'users.banned',
  'users.lb_opt_out',
  'users.inventory_badges',
  'users.premium_expires_at',
] as const;

@Injectable()
export class FriendsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** The other side of every accepted connection of `uid`, with the connection's id and last change. */
  async acceptedFriends(uid: string): Promise<FriendRow[]> {
    return this.db
      .selectFrom('connections')
      .innerJoin('users', (join) =>
        join.on(
          'users.uid',
          '=',
          sql<string>`CASE WHEN connections.initiator_uid = ${uid} THEN connections.receiver_uid ELSE connections.initiator_uid END`,
        ),
      )
      .select([...USER_COLUMNS, 'connections.id as connection_id', 'connections.last_modified'])
      .where(sql<boolean>`(connections.initiator_uid = ${uid} OR connections.receiver_uid = ${uid})`)
      .where('connections.status', '=', 'accepted')
      .orderBy(sql`lower(users.name)`)
      .orderBy('users.uid')
      .execute();
  }

  async self(uid: string): Promise<FriendRow | undefined> {
    return this.db
      .selectFrom('users')
      .select([
        ...USER_COLUMNS,
        sql<string | null>`NULL`.as('connection_id'),
        sql<number | null>`NULL`.as('last_modified'),
      ])
      .where('users.uid', '=', uid)
      .executeTakeFirst();
  }

  /** Per user, the highest-wpm time 15 and time 60 personal best (any language and settings). */
  async topTimePbs(uids: string[]): Promise<TimePbRow[]> {
    if (uids.length === 0) return [];
    return this.db
      .selectFrom('personal_bests')
      .distinctOn(['uid', 'mode2'])
      .select([
        'uid',
        'mode2',
        'acc',
        'consistency',
        'difficulty',
        'lazy_mode',
        'language',
        'punctuation',
        'numbers',
        'raw',
        'wpm',
        'timestamp',
      ])
      .where('uid', 'in', uids)
      .where('mode', '=', 'time')
      .where('mode2', 'in', ['15', '60'])
      .orderBy('uid')
      .orderBy('mode2')
      .orderBy('wpm', 'desc')
      .orderBy('timestamp', 'asc')
      .execute();
  }
}
