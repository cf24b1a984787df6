import { Injectable, Logger } from '@nestjs/common';
import { clientRoom, type ClientRoom, type RoomConfig } from './domain/room';
import type { LeaveReason } from './domain/room-machine';
import type { Outcome } from './domain/transition';
import type { TribeSocket } from './tribe-connection';
import { TribeHub } from './tribe-hub';
import { TribePresenceRepository } from './tribe-presence.repository';
import { TribeRoomService } from './tribe-room.service';

export type JoinAnswer = { room: ClientRoom } | { refusal: string };

/**
 * A connection's membership: which room its player is in, kept in step in three places (the room, this connection,
 * and the replica's list of connections another replica reads if this one dies). The list is written before the
 * room on the way in and after it on the way out, so a crash in between leaves an entry that points at a room the
 * player is not in (harmless to clean up), never a player in a room nobody would clean up.
 */
@Injectable()
export class TribeSessionService {
  private readonly logger = new Logger(TribeSessionService.name);
  /** Set while the replica stops: it has taken its players out of their rooms and forgets its list itself. */
  stopping = false;

  constructor(
    private readonly rooms: TribeRoomService,
    private readonly presence: TribePresenceRepository,
    private readonly hub: TribeHub,
  ) {
    hub.onRemoved = (socket, roomId) => void this.forget(socket, roomId);
  }

  async connected(socket: TribeSocket): Promise<void> {
    await this.presence.register(this.hub.replicaId, socket.id, null);
  }

  async disconnected(socket: TribeSocket): Promise<void> {
    if (this.stopping) return;
    await this.leave(socket, 'disconnected');
    await this.presence.unregister(this.hub.replicaId, socket.id);
  }

  async create(socket: TribeSocket, config: RoomConfig, isPrivate: boolean): Promise<void> {
    await this.leave(socket, 'left');
    const room = await this.rooms.create(socket.data.identity, config, isPrivate, (code) =>
      this.presence.register(this.hub.replicaId, socket.id, code),
    );
    socket.data.roomId = room.id;
  }

  async join(socket: TribeSocket, roomId: string): Promise<JoinAnswer> {
    if (socket.data.roomId === roomId) {
      const again = await this.rooms.command(roomId, { type: 'join', identity: socket.data.identity });
      if (again?.room?.members[socket.id]) return { room: clientRoom(again.room) };
    }
    await this.leave(socket, 'left');
    await this.presence.register(this.hub.replicaId, socket.id, roomId);
    const outcome = await this.rooms.command(roomId, { type: 'join', identity: socket.data.identity });
    const room = outcome?.room;
    if (!room || !room.members[socket.id]) {
      await this.presence.register(this.hub.replicaId, socket.id, null);
      return { refusal: outcome ? (outcome.refusal ?? 'Could not join the room') : 'Room not found' };
    }
    socket.data.roomId = roomId;
    return { room: clientRoom(room) };
  }

  /** Takes the player out of its room, if any (`left`: it asked to; the client is told with `room_left`). */
  async leave(socket: TribeSocket, reason: LeaveReason): Promise<Outcome | null> {
    const roomId = socket.data.roomId;
    if (roomId === null) return null;
    const outcome = await this.rooms.command(roomId, { type: 'leave', memberId: socket.id, reason });
    await this.forget(socket, roomId);
    return outcome;
  }

  /** The connection is out of the room (left, banned, made way, cleaned up): it no longer routes events there. */
  private async forget(socket: TribeSocket, roomId: string): Promise<void> {
    if (socket.data.roomId !== roomId) return;
    socket.data.roomId = null;
    if (!socket.connected) return;
    try {
      await this.presence.register(this.hub.replicaId, socket.id, null);
    } catch (e) {
      // The entry still names the room: the clean-up of this replica's connections finds the player is not in it.
      this.logger.warn(
        { playerId: socket.id, roomId, err: (e as Error).message },
        'could not update a connection',
      );
    }
  }
}
