import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { TribeTimings } from './domain/limits';
import { TribeHub } from './tribe-hub';
import { TribePresenceRepository } from './tribe-presence.repository';
import { TribeRoomRepository } from './tribe-room.repository';
import { TRIBE_TIMINGS, TribeRoomService } from './tribe-room.service';
import type { ScheduleEntry } from './tribe-schedule.repository';
import { TribeScheduleRepository } from './tribe-schedule.repository';
import { TribeSessionService } from './tribe-session.service';

/** Due entries claimed per round trip; a full batch is followed by another round at once. */
const CLAIM_BATCH = 100;
/** How long a stopping replica spends taking its players out of their rooms before it lets go. */
const DRAIN_TIMEOUT_MS = 5_000;
const WARN_EVERY_MS = 10_000;

/**
 * What every replica runs in the background, while Tribe is not disabled:
 * - the room timers and progress ticks that are due, whoever scheduled them (claimed, so each runs once);
 * - a heartbeat, and the clean-up after replicas whose heartbeat stopped (their players leave their rooms);
 * - checks of its own connections against the store, room time-to-live refreshes, and the removal of forgotten
 *   rooms from the index, so nothing grows without bound.
 * Stopping (drain or `app.close()`), it takes its players out of their rooms first, so the rooms go on without them
 * and their leaders pass to members still there.
 */
@Injectable()
export class TribeReplicaService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('TribeReplica');
  private readonly timers = new Set<NodeJS.Timeout>();
  private polling: Promise<void> | null = null;
  private stopped = false;
  private beaten = false;
  private registering: Promise<void> | null = null;
  private lastWarning = 0;

  constructor(
    private readonly hub: TribeHub,
    private readonly rooms: TribeRoomService,
    private readonly roomStore: TribeRoomRepository,
    private readonly schedule: TribeScheduleRepository,
    private readonly presence: TribePresenceRepository,
    private readonly sessions: TribeSessionService,
    private readonly configuration: ServerConfigurationService,
    @Inject(TRIBE_TIMINGS) private readonly timings: TribeTimings,
  ) {}

  onApplicationBootstrap(): void {
    this.every(this.timings.schedulerPollMs, () => this.poll());
    this.every(this.timings.heartbeatMs, () => this.heartbeat());
    this.every(this.timings.housekeepingMs, () => this.housekeeping());
  }

  /**
   * Runs `work` again `ms` after it ended, give or take half of it: replicas that started together do not keep
   * polling in lockstep (the first to look would claim nearly every due timer, and carry most of the work).
   */
  private every(ms: number, work: () => Promise<void>): void {
    const schedule = () => {
      if (this.stopped) return;
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          void work()
            .catch((e: unknown) => this.warn('background work failed', e))
            .finally(schedule);
        },
        ms * (0.5 + Math.random()),
      );
      this.timers.add(timer);
    };
    schedule();
  }

  private warn(what: string, e: unknown): void {
    const now = Date.now();
    if (now - this.lastWarning < WARN_EVERY_MS) return;
    this.lastWarning = now;
    this.logger.warn({ err: (e as Error).message }, what);
  }

  private async enabled(): Promise<boolean> {
    return (await this.configuration.get()).tribe.mode !== 'disabled';
  }

  private poll(): Promise<void> {
    this.polling ??= this.claimDue().finally(() => (this.polling = null));
    return this.polling;
  }

  private async claimDue(): Promise<void> {
    if (!(await this.enabled())) return;
    // A replica with no player yet still runs other replicas' rooms' timers: its emits must reach them.
    await this.ensureRegistered();
    for (;;) {
      const now = Date.now();
      const lease = now + this.timings.timerLeaseMs;
      const entries = await this.schedule.claim(now, lease, CLAIM_BATCH);
      await Promise.all(entries.map(({ entry, due }) => this.runEntry(entry, due, lease)));
      if (entries.length < CLAIM_BATCH || this.stopped) return;
    }
  }

  private async runEntry(entry: ScheduleEntry, due: number, lease: number): Promise<void> {
    const roomId = entry.slice(2);
    try {
      if (entry.startsWith('s:')) await this.rooms.runTimer(roomId, lease);
      else await this.rooms.runTick(roomId, due, lease);
    } catch (e) {
      // Left claimed: it comes due again when the lease ends.
      this.warn(`room ${roomId}: timer failed`, e);
    }
  }

  /**
   * The heartbeat, and the clean-up after dead replicas. A replica that finds itself counted dead (a long pause)
   * lets its connections go: their players were taken out of their rooms meanwhile.
   */
  private async heartbeat(): Promise<void> {
    if (!(await this.enabled())) return;
    await this.beat();
    const { dead } = await this.presence.replicas(Date.now() - this.timings.deadAfterMs);
    for (const replica of dead) await this.cleanUpAfter(replica);
  }

  private async beat(): Promise<void> {
    const absent = await this.presence.heartbeat(this.hub.replicaId, Date.now());
    if (absent && this.beaten) {
      this.logger.warn(
        { replica: this.hub.replicaId },
        'this replica was counted dead: dropping its connections',
      );
      for (const socket of this.hub.localSockets()) socket.disconnect(true);
    }
    this.beaten = true;
  }

  /**
   * The replica's first heartbeat, before it takes its first connection: a replica that died before its first
   * periodic beat would otherwise leave players that no other replica knows to clean up.
   */
  async ensureRegistered(): Promise<void> {
    if (this.beaten) return;
    this.hub.activateTransport();
    this.registering ??= this.beat().finally(() => (this.registering = null));
    await this.registering;
  }

  private async cleanUpAfter(replica: string): Promise<void> {
    if (!(await this.presence.lock(`sweep:${replica}`, this.hub.replicaId, this.timings.housekeepingMs * 2)))
      return;
    const connections = await this.presence.connections(replica);
    for (const [playerId, roomId] of Object.entries(connections)) {
      if (roomId !== '')
        await this.rooms.command(roomId, { type: 'leave', memberId: playerId, reason: 'disconnected' });
    }
    await this.presence.forget(replica);
    this.logger.log({ replica, players: Object.keys(connections).length }, 'cleaned up after a dead replica');
  }

  private async housekeeping(): Promise<void> {
    if (!(await this.enabled())) return;
    const local = new Map(this.hub.localSockets().map((socket) => [socket.id, socket]));
    // Connections this replica listed but no longer holds (a disconnection it could not process).
    const listed = await this.presence.connections(this.hub.replicaId);
    for (const [playerId, roomId] of Object.entries(listed)) {
      if (local.has(playerId)) continue;
      if (roomId !== '')
        await this.rooms.command(roomId, { type: 'leave', memberId: playerId, reason: 'disconnected' });
      await this.presence.unregister(this.hub.replicaId, playerId);
    }
    const roomIds = new Set([...local.values()].flatMap((s) => (s.data.roomId ? [s.data.roomId] : [])));
    await this.roomStore.touch(roomIds, this.timings.roomTtlMs);
    if (await this.presence.lock('gc', this.hub.replicaId, this.timings.housekeepingMs))
      await this.collectForgottenRooms();
  }

  /** Rooms that expired (every member's replica gone for an hour) leave the index. */
  private async collectForgottenRooms(): Promise<void> {
    const ids = await this.roomStore.indexedRoomIds();
    for (let i = 0; i < ids.length; i += 100) {
      await Promise.all(
        ids.slice(i, i + 100).map(async (id) => {
          if (!(await this.roomStore.exists(id))) await this.roomStore.unindex(id);
        }),
      );
    }
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    await this.polling?.catch(() => undefined);
    this.sessions.stopping = true;
    const sockets = this.hub.localSockets();
    if (sockets.length > 0) {
      const drop = Promise.all(
        sockets.map(async (socket) => {
          socket.emit('system_notification', {
            message: 'Server is restarting, reconnect to rejoin your room',
            level: 0,
          });
          await this.sessions.leave(socket, 'disconnected').catch(() => undefined);
        }),
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([drop, new Promise((resolve) => (timer = setTimeout(resolve, DRAIN_TIMEOUT_MS)))]);
      clearTimeout(timer);
    }
    this.hub.closeTransport();
    await this.presence.forget(this.hub.replicaId).catch(() => undefined);
  }
}
