import { Injectable, Logger } from '@nestjs/common';
import { newReplicaId } from './domain/ids';
import type { Effect, Target } from './domain/transition';
import type { TribeServer, TribeSocket } from './tribe-connection';

/** The server-side event another replica gets when a player it holds was taken out of a room elsewhere. */
const REMOVED = 'tribe:removed';
/**
 * How long a `room_config_changed` waits for the clients' answers. Nothing depends on them (the client's handler
 * calls back, and would fail without a callback to call); a late answer is ignored. Short, because socket.io keeps
 * the wait's timer even past the server's close.
 */
const CONFIG_ACK_TIMEOUT_MS = 2_000;

/**
 * This replica's end of the socket server: emits to rooms and players wherever they are connected (through the
 * Redis adapter), and keeps the connections it holds in step when their player leaves a room on another replica's
 * doing (a ban, a clean-up). Set up by the gateway once the server exists; without a server (an application context
 * without HTTP) every emit is a no-op.
 */
@Injectable()
export class TribeHub {
  readonly replicaId = newReplicaId();
  private server: TribeServer | null = null;
  private readonly logger = new Logger(TribeHub.name);
  /** Called for a local player taken out of a room (by this replica or another one). */
  onRemoved: (socket: TribeSocket, roomId: string) => void = () => undefined;
  /** Closes every connection of this replica and refuses new ones (set by the socket adapter). */
  closeTransport: () => void = () => undefined;
  /** Joins the replicas' shared rooms through Redis, once Tribe is on (set by the socket adapter). */
  activateTransport: () => void = () => undefined;

  attach(server: TribeServer): void {
    this.server = server;
    server.on(REMOVED, (playerId: unknown, roomId: unknown) => {
      if (typeof playerId === 'string' && typeof roomId === 'string') this.removedHere(playerId, roomId);
    });
  }

  get io(): TribeServer | null {
    return this.server;
  }

  static channel(roomId: string): string {
    return `tribe-room:${roomId}`;
  }

  local(playerId: string): TribeSocket | undefined {
    return this.server?.of('/').sockets.get(playerId);
  }

  localSockets(): TribeSocket[] {
    return this.server ? [...this.server.of('/').sockets.values()] : [];
  }

  emit(roomId: string, to: Target, event: string, data?: unknown, withAck = false): void {
    const io = this.server;
    if (!io) return;
    const args = data === undefined ? [] : [data];
    if ('member' in to) {
      io.to(to.member).emit(event, ...args);
      return;
    }
    let operator = io.to(TribeHub.channel(roomId));
    if (to.except) operator = operator.except(to.except);
    if (withAck) {
      operator.timeout(CONFIG_ACK_TIMEOUT_MS).emit(event, ...args, () => undefined);
      return;
    }
    operator.emit(event, ...args);
  }

  /** Carries out a room's effects, in order. */
  async run(roomId: string, effects: Effect[]): Promise<void> {
    for (const effect of effects) {
      switch (effect.kind) {
        case 'emit':
          this.emit(roomId, effect.to, effect.event, effect.data, effect.withAck === true);
          break;
        case 'channel-join':
          await this.joinChannel(effect.memberId, roomId);
          break;
        case 'channel-leave':
          await this.leaveChannel(effect.memberId, roomId);
          break;
        case 'removed':
          this.removed(effect.memberId, roomId);
          break;
        case 'race-prepared':
          break;
      }
    }
  }

  private async joinChannel(playerId: string, roomId: string): Promise<void> {
    const local = this.local(playerId);
    if (local) await local.join(TribeHub.channel(roomId));
    else this.server?.in(playerId).socketsJoin(TribeHub.channel(roomId));
  }

  private async leaveChannel(playerId: string, roomId: string): Promise<void> {
    const local = this.local(playerId);
    if (local) await local.leave(TribeHub.channel(roomId));
    else this.server?.in(playerId).socketsLeave(TribeHub.channel(roomId));
  }

  private removed(playerId: string, roomId: string): void {
    if (this.local(playerId)) this.removedHere(playerId, roomId);
    else this.server?.serverSideEmit(REMOVED, playerId, roomId);
  }

  private removedHere(playerId: string, roomId: string): void {
    const socket = this.local(playerId);
    if (!socket || socket.data.roomId !== roomId) return;
    try {
      this.onRemoved(socket, roomId);
    } catch (e) {
      this.logger.warn({ playerId, roomId, err: (e as Error).message }, 'could not forget a room');
    }
  }
}
