import { Inject, Injectable } from '@nestjs/common';
import { newRoomCode, newSeed } from './domain/ids';
import { TRIBE_LIMITS, type TribeTimings } from './domain/limits';
import { progressBroadcast } from './domain/progress';
import {
  RACE_ACTIVE,
  type Identity,
  type Progress,
  type PublicRoom,
  type Room,
  type RoomConfig,
} from './domain/room';
import { apply, createRoom, type Command } from './domain/room-machine';
import type { Context, Outcome } from './domain/transition';
import { TribeHub } from './tribe-hub';
import { TribeRoomRepository } from './tribe-room.repository';
import { ticksEntry, timerEntry, TribeScheduleRepository } from './tribe-schedule.repository';

export const TRIBE_TIMINGS = Symbol('TRIBE_TIMINGS');

/** A room changed by several replicas at once is read again; past this many tries the command gives up. */
const MAX_ATTEMPTS = 12;

export class RoomBusyError extends Error {
  constructor(roomId: string) {
    super(`room ${roomId} is changing too often, try again`);
  }
}

/**
 * Runs commands against rooms in Redis: read the room, apply the pure state machine, store the result if the room is
 * still at the version read (else read again and recompute), then carry out what it says to emit. A timer the new
 * room needs is scheduled before the room is stored, so a replica that dies in between leaves a timer that fires for
 * nothing rather than a room that waits forever.
 */
@Injectable()
export class TribeRoomService {
  constructor(
    private readonly rooms: TribeRoomRepository,
    private readonly schedule: TribeScheduleRepository,
    private readonly hub: TribeHub,
    @Inject(TRIBE_TIMINGS) private readonly timings: TribeTimings,
  ) {}

  private ctx(): Context {
    return { now: Date.now(), timings: this.timings };
  }

  /**
   * A new room with its creator leading it; a code already taken is drawn again. `reserve` runs with each code
   * before the room is stored under it (the creator's connection records the room first).
   */
  async create(
    creator: Identity,
    config: RoomConfig,
    isPrivate: boolean,
    reserve: (code: string) => Promise<void>,
  ): Promise<Room> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const id = newRoomCode();
      const { room, effects } = createRoom({
        id,
        creator,
        config,
        isPrivate,
        seed: newSeed(),
        ctx: this.ctx(),
      });
      await reserve(id);
      const version = await this.rooms.save(room, 0, true, this.timings.roomTtlMs);
      if (version === null) continue;
      await this.rooms.index(room.id, version, room);
      await this.hub.run(room.id, effects);
      return room;
    }
    throw new RoomBusyError('(new)');
  }

  /** One command; null when the room does not exist. */
  async command(roomId: string, command: Command): Promise<Outcome | null> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await this.rooms.load(roomId);
      if (!stored) return null;
      const outcome = apply(stored.room, command, this.ctx());
      if (outcome.changed) {
        const version = await this.store(stored.room, stored.version, outcome);
        if (version === null) continue;
        await this.rooms.index(roomId, version, outcome.room);
        if (outcome.effects.some((e) => e.kind === 'race-prepared')) await this.rooms.clearProgress(roomId);
      }
      await this.hub.run(roomId, outcome.effects);
      return outcome;
    }
    throw new RoomBusyError(roomId);
  }

  private async store(before: Room, version: number, outcome: Outcome): Promise<number | null> {
    const after = outcome.room;
    if (!after) return this.rooms.remove(before.id, version);
    const timer = after.timer;
    if (timer && (timer.at !== before.timer?.at || timer.kind !== before.timer.kind))
      await this.schedule.schedule(timerEntry(after.id), timer.at);
    if (outcome.effects.some((e) => e.kind === 'race-prepared'))
      await this.schedule.schedule(ticksEntry(after.id), Date.now() + this.timings.initMs);
    return this.rooms.save(after, version, after.config !== before.config, this.timings.roomTtlMs);
  }

  /** A claimed timer entry: the room's step, if due, then the entry follows the room's next timer (or goes). */
  async runTimer(roomId: string, lease: number): Promise<void> {
    const outcome = await this.command(roomId, { type: 'timer' });
    const next = outcome?.room?.timer?.at ?? null;
    await this.schedule.settle(timerEntry(roomId), lease, next);
  }

  /**
   * A claimed progress tick: while the race runs, every member gets the racers' last figures (and the clients
   * answer with their own); before the race the ticks wait, after it they stop.
   */
  async runTick(roomId: string, due: number, lease: number): Promise<void> {
    const room = await this.rooms.loadState(roomId);
    if (!room) return this.schedule.settle(ticksEntry(roomId), lease, null);
    const now = Date.now();
    if (RACE_ACTIVE.includes(room.state)) {
      const latest = await this.rooms.progress(roomId);
      this.hub.emit(roomId, { room: true }, 'room_progress_update', progressBroadcast(room, latest));
      // From when it was due, so the period holds whatever the polling adds; a tick late by less than a period comes
      // at once, one late by more (a replica died holding it) is not repeated to catch up.
      const next = due + room.updateRate;
      const at = next >= now ? next : next >= now - room.updateRate ? now : now + room.updateRate;
      return this.schedule.settle(ticksEntry(roomId), lease, at);
    }
    const waiting = room.state === 'RACE_INIT' || room.state === 'RACE_COUNTDOWN';
    return this.schedule.settle(ticksEntry(roomId), lease, waiting ? now + room.updateRate : null);
  }

  async progress(roomId: string, playerId: string, progress: Progress): Promise<void> {
    await this.rooms.setProgress(roomId, playerId, progress);
  }

  /** Public rooms whose name contains `search` (any case), rooms waiting in the lobby first. */
  async publicRooms(search: string): Promise<PublicRoom[]> {
    const needle = search.toLowerCase();
    const rooms = (await this.rooms.publicRooms()).filter((r) => r.name.toLowerCase().includes(needle));
    rooms.sort((a, b) => Number(b.state === 'LOBBY') - Number(a.state === 'LOBBY') || b.size - a.size);
    return rooms.slice(0, TRIBE_LIMITS.publicRoomsPerPage);
  }
}
