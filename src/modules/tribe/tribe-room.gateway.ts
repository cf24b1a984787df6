import { ConnectedSocket, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { Checked } from './domain/room-config';
import { newSeed } from './domain/ids';
import * as payloads from './domain/payloads';
import type { PublicRoom } from './domain/room';
import type { Command } from './domain/room-machine';
import type { TribeEventClass, TribeSocket } from './tribe-connection';
import { notify, OK, refused, TribeEventRunner, type Ack } from './tribe-events';
import { EventPayload } from './event-payload.decorator';
import { TribeRoomService } from './tribe-room.service';
import { TribeSessionService, type JoinAnswer } from './tribe-session.service';

type RoomCommand = Exclude<Command, { type: 'join' | 'leave' | 'timer' }>;

/**
 * The `room_*` events of the client's room routes. Each payload is checked by its own small schema
 * (`domain/payloads.ts`) and each command goes to the room it names through the state machine; what the room says
 * to emit reaches its members on every replica.
 */
@WebSocketGateway({ path: '/socket.io' })
export class TribeRoomGateway {
  constructor(
    private readonly events: TribeEventRunner,
    private readonly sessions: TribeSessionService,
    private readonly rooms: TribeRoomService,
  ) {}

  /** A command to the player's room, from a checked payload. */
  private command<T>(
    socket: TribeSocket,
    event: string,
    eventClass: TribeEventClass,
    checked: () => Checked<T>,
    toCommand: (value: T, by: string) => RoomCommand,
  ): Promise<Ack> {
    return this.events.run(
      socket,
      event,
      eventClass,
      async () => {
        const value = checked();
        if (!value.ok) return refused(value.error);
        const roomId = socket.data.roomId;
        if (roomId === null) return refused('You are not in a room');
        const outcome = await this.rooms.command(roomId, toCommand(value.value, socket.id));
        if (!outcome || outcome.refusal === 'You are not in this room') {
          // The room is gone, or this player was taken out of it elsewhere: stop routing events there.
          socket.data.roomId = null;
          return refused('You are not in a room');
        }
        if (outcome.refusal) {
          notify(socket, outcome.refusal);
          return refused(outcome.refusal);
        }
        return OK;
      },
      refused,
    );
  }

  private nothing = (): Checked<null> => ({ ok: true, value: null });

  @SubscribeMessage('room_get_public_rooms')
  publicRooms(
    @ConnectedSocket() socket: TribeSocket,
    @EventPayload() payload: unknown,
  ): Promise<{ rooms: PublicRoom[] } & Partial<Ack>> {
    return this.events.run(
      socket,
      'room_get_public_rooms',
      'tribeSystem',
      async () => {
        const query = payloads.publicRoomsQuery(payload);
        if (!query.ok) return { rooms: [], ...refused(query.error) };
        return { rooms: await this.rooms.publicRooms(query.value.search) };
      },
      (message) => ({ rooms: [], ...refused(message) }),
    );
  }

  @SubscribeMessage('room_join')
  join(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<JoinAnswer | Ack> {
    return this.events.run<JoinAnswer | Ack>(
      socket,
      'room_join',
      'tribeRoomAction',
      async () => {
        const join = payloads.joinRoom(payload);
        if (!join.ok) {
          notify(socket, join.error);
          return refused(join.error);
        }
        const answer = await this.sessions.join(socket, join.value.roomId);
        if ('refusal' in answer) {
          notify(socket, answer.refusal);
          return refused(answer.refusal);
        }
        return answer;
      },
      (message) => {
        notify(socket, message);
        return refused(message);
      },
    );
  }

  @SubscribeMessage('room_create')
  create(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.events.run(
      socket,
      'room_create',
      'tribeRoomAction',
      async () => {
        const create = payloads.createRoom(payload);
        if (!create.ok) {
          // The client disabled its menu buttons while it waits for the room: a notification, and it can try again.
          notify(socket, create.error);
          socket.emit('room_left');
          return refused(create.error);
        }
        await this.sessions.create(socket, create.value.config, create.value.isPrivate);
        return OK;
      },
      (message) => {
        notify(socket, message);
        return refused(message);
      },
    );
  }

  @SubscribeMessage('room_leave')
  leave(@ConnectedSocket() socket: TribeSocket): Promise<Ack> {
    return this.events.run(
      socket,
      'room_leave',
      'tribeRoomAction',
      async () => {
        if (socket.data.roomId === null) {
          socket.emit('room_left');
          return OK;
        }
        await this.sessions.leave(socket, 'left');
        return OK;
      },
      refused,
    );
  }

  @SubscribeMessage('room_update_name')
  rename(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.command(
      socket,
      'room_update_name',
      'tribeRoomAction',
      () => payloads.roomName(payload),
      (name, by) => ({
        type: 'rename',
        by,
        name,
      }),
    );
  }

  @SubscribeMessage('room_toggle_visibility')
  toggleVisibility(@ConnectedSocket() socket: TribeSocket): Promise<Ack> {
    return this.command(socket, 'room_toggle_visibility', 'tribeRoomAction', this.nothing, (_, by) => ({
      type: 'toggleVisibility',
      by,
    }));
  }

  @SubscribeMessage('room_give_leader')
  giveLeader(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.command(
      socket,
      'room_give_leader',
      'tribeRoomAction',
      () => payloads.playerTarget(payload),
      (target, by) => ({ type: 'giveLeader', by, target }),
    );
  }

  @SubscribeMessage('room_ban_user')
  ban(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.command(
      socket,
      'room_ban_user',
      'tribeRoomAction',
      () => payloads.playerTarget(payload),
      (target, by) => ({ type: 'ban', by, target }),
    );
  }

  @SubscribeMessage('room_update_config')
  updateConfig(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.command(
      socket,
      'room_update_config',
      'tribeRoomAction',
      () => {
        const config = payloads.updateConfig(payload);
        if (!config.ok) notify(socket, config.error);
        return config;
      },
      (config, by) => ({ type: 'updateConfig', by, config }),
    );
  }

  @SubscribeMessage('room_ready_update')
  ready(@ConnectedSocket() socket: TribeSocket): Promise<Ack> {
    return this.command(socket, 'room_ready_update', 'tribeRoomAction', this.nothing, (_, by) => ({
      type: 'ready',
      by,
    }));
  }

  @SubscribeMessage('room_afk_update')
  afk(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.command(
      socket,
      'room_afk_update',
      'tribeRoomAction',
      () => payloads.flag(payload, 'isAfk'),
      (isAfk, by) => ({ type: 'afk', by, isAfk }),
    );
  }

  @SubscribeMessage('room_chatting_update')
  chatting(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.command(
      socket,
      'room_chatting_update',
      'tribeChat',
      () => payloads.flag(payload, 'isChatting'),
      (isChatting, by) => ({ type: 'chatting', by, isChatting }),
    );
  }

  @SubscribeMessage('room_chat_message')
  chat(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.command(
      socket,
      'room_chat_message',
      'tribeChat',
      () => payloads.chat(payload),
      (message, by) => ({ type: 'chat', by, message }),
    );
  }

  @SubscribeMessage('room_init_race')
  initRace(@ConnectedSocket() socket: TribeSocket): Promise<Ack> {
    return this.command(socket, 'room_init_race', 'tribeRoomAction', this.nothing, (_, by) => ({
      type: 'initRace',
      by,
      seed: newSeed(),
    }));
  }

  @SubscribeMessage('room_result')
  result(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.command(
      socket,
      'room_result',
      'tribeResult',
      () => payloads.raceResult(payload),
      (result, by) => ({ type: 'result', by, result }),
    );
  }

  @SubscribeMessage('room_back_to_lobby')
  backToLobby(@ConnectedSocket() socket: TribeSocket): Promise<Ack> {
    return this.command(socket, 'room_back_to_lobby', 'tribeRoomAction', this.nothing, (_, by) => ({
      type: 'backToLobby',
      by,
    }));
  }

  /** A racer's live figures: kept as its last progress; the room's tick relays everyone's. */
  @SubscribeMessage('room_progress_update')
  progress(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.events.run(
      socket,
      'room_progress_update',
      'tribeProgress',
      async () => {
        const progress = payloads.progress(payload);
        if (!progress.ok) return refused(progress.error);
        const roomId = socket.data.roomId;
        if (roomId === null) return refused('You are not in a room');
        await this.rooms.progress(roomId, socket.id, progress.value);
        return OK;
      },
      refused,
    );
  }
}
