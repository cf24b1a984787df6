import { Inject, Injectable } from '@nestjs/common';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { publicRoom, type Progress, type PublicRoom, type Room } from './domain/room';

export interface StoredRoom {
  version: number;
  room: Room;
}

type RoomState = Omit<Room, 'config'>;

/** Progress of one race outlives no room: a little longer than the longest race, refreshed on every tick. */
const PROGRESS_TTL_MS = 30 * 60_000;

/**
 * Tribe rooms in Redis: one hash per room (version, state, config apart: the custom text can be large and changes
 * rarely), its racers' last progress beside it, and the index of rooms (summaries and the public ones) every replica
 * lists and counts from. Writes are compare-and-set on the version (`tribeRoomSave`).
 */
@Injectable()
export class TribeRoomRepository {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  async load(roomId: string): Promise<StoredRoom | null> {
    const [version, state, config] = await this.redis.hmget(redisKeys.tribeRoom(roomId).room, 'v', 's', 'c');
    if (!version || !state || !config) return null;
    return {
      version: Number(version),
      room: { ...(JSON.parse(state) as RoomState), config: JSON.parse(config) },
    };
  }

  /** The room without its config (progress ticks need who races, not the words). */
  async loadState(roomId: string): Promise<RoomState | null> {
    const state = await this.redis.hget(redisKeys.tribeRoom(roomId).room, 's');
    return state ? (JSON.parse(state) as RoomState) : null;
  }

  /**
   * Stores the room if it is still at `version` (0: creates it, if the code is free). The new version, or null when
   * the room changed meanwhile (or, for a new room, the code is taken).
   */
  async save(room: Room, version: number, configChanged: boolean, ttlMs: number): Promise<number | null> {
    const { config, ...state } = room;
    const keys = redisKeys.tribeRoom(room.id);
    const saved = await this.redis.tribeRoomSave(
      keys.room,
      keys.progress,
      version,
      JSON.stringify(state),
      configChanged || version === 0 ? JSON.stringify(config) : '',
      ttlMs,
      '0',
    );
    return saved < 0 ? null : saved;
  }

  /** Deletes the room if it is still at `version`: the new version (for the index), or null. */
  async remove(roomId: string, version: number): Promise<number | null> {
    const keys = redisKeys.tribeRoom(roomId);
    const removed = await this.redis.tribeRoomSave(keys.room, keys.progress, version, '', '', 1, '1');
    return removed < 0 ? null : removed;
  }

  /** The room's line in the index (`room` null: it is gone). */
  async index(roomId: string, version: number, room: Room | null): Promise<void> {
    const keys = redisKeys.tribeIndex();
    await this.redis.tribeRoomIndex(
      keys.rooms,
      keys.publicRooms,
      roomId,
      version,
      room ? JSON.stringify(publicRoom(room)) : '',
      room && !room.isPrivate ? '1' : '0',
    );
  }

  async setProgress(roomId: string, playerId: string, progress: Progress): Promise<void> {
    const keys = redisKeys.tribeRoom(roomId);
    await this.redis.tribeProgressSet(
      keys.room,
      keys.progress,
      playerId,
      JSON.stringify(progress),
      PROGRESS_TTL_MS,
    );
  }

  async progress(roomId: string): Promise<Record<string, Progress>> {
    const raw = await this.redis.hgetall(redisKeys.tribeRoom(roomId).progress);
    const out: Record<string, Progress> = {};
    for (const [id, json] of Object.entries(raw)) out[id] = JSON.parse(json) as Progress;
    return out;
  }

  async clearProgress(roomId: string): Promise<void> {
    await this.redis.del(redisKeys.tribeRoom(roomId).progress);
  }

  /** Keeps rooms with connected members alive (a lobby can chat for hours without changing the room). */
  async touch(roomIds: Iterable<string>, ttlMs: number): Promise<void> {
    await Promise.all(
      [...roomIds].map((id) => {
        const keys = redisKeys.tribeRoom(id);
        return Promise.all([this.redis.pexpire(keys.room, ttlMs), this.redis.pexpire(keys.progress, ttlMs)]);
      }),
    );
  }

  async exists(roomId: string): Promise<boolean> {
    return (await this.redis.exists(redisKeys.tribeRoom(roomId).room)) === 1;
  }

  /** The public rooms, as the index has them. */
  async publicRooms(): Promise<PublicRoom[]> {
    const keys = redisKeys.tribeIndex();
    const ids = await this.redis.smembers(keys.publicRooms);
    if (ids.length === 0) return [];
    const lines = await this.redis.hmget(keys.rooms, ...ids);
    return lines.flatMap((line) =>
      line ? [JSON.parse(line.slice(line.indexOf('|') + 1)) as PublicRoom] : [],
    );
  }

  async counts(): Promise<{ rooms: number; publicRooms: number }> {
    const keys = redisKeys.tribeIndex();
    const [rooms, publicRooms] = await Promise.all([
      this.redis.hlen(keys.rooms),
      this.redis.scard(keys.publicRooms),
    ]);
    return { rooms, publicRooms };
  }

  async indexedRoomIds(): Promise<string[]> {
    return this.redis.hkeys(redisKeys.tribeIndex().rooms);
  }

  /** Drops a room that expired from the index (its last version is unknown: any line goes). */
  async unindex(roomId: string): Promise<void> {
    const keys = redisKeys.tribeIndex();
    await Promise.all([this.redis.hdel(keys.rooms, roomId), this.redis.srem(keys.publicRooms, roomId)]);
  }
}
