import { Inject, Logger } from '@nestjs/common';
import {
  ConnectedSocket,
  SubscribeMessage,
  WebSocketGateway,
  type OnGatewayConnection,
  type OnGatewayDisconnect,
  type OnGatewayInit,
} from '@nestjs/websockets';
import { limitClass } from '../../common/rate-limit/rate-limit.guard';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ReadinessService } from '../status/readiness.service';
import { clientAddress } from './client-address';
import { newPlayerId } from './domain/ids';
import { ACCEPTED_CLIENT_VERSIONS, TRIBE_PROTOCOL_VERSION } from './domain/limits';
import * as payloads from './domain/payloads';
import {
  ConnectionLimiter,
  EventQueue,
  type TribeEventLimits,
  type TribeServer,
  type TribeSocket,
} from './tribe-connection';
import { DISABLED, notify, OK, refused, TribeEventRunner, UNAVAILABLE, type Ack } from './tribe-events';
import { EventPayload } from './event-payload.decorator';
import { TribeHub } from './tribe-hub';
import { TribeIdentityService, TribeRefusal } from './tribe-identity.service';
import { TribeReplicaService } from './tribe-replica.service';
import { TribeSessionService } from './tribe-session.service';
import { TribeStatsService, type SystemStats } from './tribe-stats.service';

/**
 * The Tribe connection and its `system_*` and `user_*` events. A connection is admitted by a middleware that runs
 * before socket.io registers the socket, which is where its id is replaced: the client puts player ids into CSS
 * selectors unescaped, and socket.io's own ids start with a digit about one time in six.
 */
@WebSocketGateway({ path: '/socket.io' })
export class TribeGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger(TribeGateway.name);
  private readonly limits: TribeEventLimits;

  constructor(
    private readonly hub: TribeHub,
    private readonly identities: TribeIdentityService,
    private readonly sessions: TribeSessionService,
    private readonly stats: TribeStatsService,
    private readonly events: TribeEventRunner,
    private readonly configuration: ServerConfigurationService,
    private readonly readiness: ReadinessService,
    private readonly replica: TribeReplicaService,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {
    this.limits = {
      tribeProgress: limitClass(env, 'tribeProgress'),
      tribeChat: limitClass(env, 'tribeChat'),
      tribeRoomAction: limitClass(env, 'tribeRoomAction'),
      tribeSystem: limitClass(env, 'tribeSystem'),
      tribeResult: limitClass(env, 'tribeResult'),
    };
  }

  afterInit(server: TribeServer): void {
    this.hub.attach(server);
    server.use((socket, next) => {
      this.admit(socket as TribeSocket).then(
        () => next(),
        (e: unknown) => {
          if (!(e instanceof TribeRefusal))
            this.logger.warn({ err: (e as Error).message }, 'could not admit a connection');
          next(e instanceof TribeRefusal ? e : new Error(UNAVAILABLE));
        },
      );
    });
  }

  private async admit(socket: TribeSocket): Promise<void> {
    if (this.readiness.isDraining) throw new TribeRefusal('Server is restarting, please reconnect');
    if ((await this.configuration.get()).tribe.mode === 'disabled') throw new TribeRefusal(DISABLED);
    await this.replica.ensureRegistered();
    // The socket object was made before the middlewares ran, with the namespace's adapter of that moment: if the first
    // connection is what turned the shared (Redis) adapter on, it must use that one, not the in-memory one it was given.
    (socket as unknown as { adapter: unknown }).adapter = socket.nsp.adapter;
    const id = newPlayerId();
    const address = clientAddress(socket.request, this.env.trustProxy);
    const identity = await this.identities.identify(
      { query: socket.handshake.query, auth: socket.handshake.auth },
      { id, replica: this.hub.replicaId, address },
    );
    // socket.io 4.7 registers the socket (its id room, the namespace's map) only after the middlewares.
    (socket as { id: string }).id = id;
    socket.data = {
      identity,
      roomId: null,
      limiter: new ConnectionLimiter(this.limits),
      queue: new EventQueue(),
      address,
    };
  }

  async handleConnection(socket: TribeSocket): Promise<void> {
    try {
      await this.sessions.connected(socket);
      // The name this player goes by (a guest's rejected name, or a verified account's own).
      socket.emit('user_update_name', { name: socket.data.identity.name });
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'could not register a connection');
      notify(socket, UNAVAILABLE);
      socket.disconnect(true);
    }
  }

  handleDisconnect(socket: TribeSocket): void {
    if (!socket.data?.queue) return;
    void socket.data.queue
      .drained()
      .then(() => this.sessions.disconnected(socket))
      .catch((e: unknown) => {
        // The replica's clean-up of its own connections takes the player out of the room later.
        this.logger.warn(
          { playerId: socket.id, err: (e as Error).message },
          'could not process a disconnection',
        );
      });
  }

  @SubscribeMessage('system_version_check')
  versionCheck(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<unknown> {
    return this.events.run(
      socket,
      'system_version_check',
      'tribeSystem',
      async () => {
        const version = payloads.versionCheck(payload);
        const accepted = version.ok && ACCEPTED_CLIENT_VERSIONS.includes(version.value);
        return { status: accepted ? 'ok' : 'mismatch', version: TRIBE_PROTOCOL_VERSION };
      },
      (message) => ({ status: 'error', message, version: TRIBE_PROTOCOL_VERSION }),
    );
  }

  @SubscribeMessage('system_stats')
  systemStats(@ConnectedSocket() socket: TribeSocket): Promise<SystemStats | Ack> {
    return this.events.run<SystemStats | Ack>(
      socket,
      'system_stats',
      'tribeSystem',
      () => this.stats.stats(),
      refused,
    );
  }

  @SubscribeMessage('user_set_name')
  setName(@ConnectedSocket() socket: TribeSocket, @EventPayload() payload: unknown): Promise<Ack> {
    return this.events.run(
      socket,
      'user_set_name',
      'tribeSystem',
      async () => {
        const name = payloads.setName(payload);
        if (!name.ok) return refused(name.error);
        const identity = socket.data.identity;
        const problem =
          TribeIdentityService.renameProblem(identity, name.value) ??
          (socket.data.roomId !== null ? 'Leave the room to change your name' : null);
        if (problem) {
          notify(socket, problem);
          return refused(problem);
        }
        identity.name = name.value;
        socket.emit('user_update_name', { name: identity.name });
        return OK;
      },
      refused,
    );
  }

  @SubscribeMessage('dev_room')
  devRoom(@ConnectedSocket() socket: TribeSocket): Promise<Ack> {
    return this.events.run(
      socket,
      'dev_room',
      'tribeSystem',
      async () => {
        notify(socket, 'The development room is not available on this server');
        return refused('Not available');
      },
      refused,
    );
  }
}
