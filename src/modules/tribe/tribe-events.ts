import { Injectable, Logger } from '@nestjs/common';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { isStoreUnavailable } from '../../common/filters/store-errors';
import type { TribeEventClass, TribeSocket } from './tribe-connection';
import { RoomBusyError } from './tribe-room.service';

/** What an event without an answer of its own acknowledges, when the client asked for an acknowledgement. */
export interface Ack {
  status: 'ok' | 'error';
  message?: string;
}

export const OK: Ack = { status: 'ok' };
export const refused = (message: string): Ack => ({ status: 'error', message });

export const DISABLED = 'Tribe is disabled on this server';
export const UNAVAILABLE = 'Tribe is temporarily unavailable, please try again';

/** Tells the player why something did not happen (the client shows `system_notification` as a toast). */
export function notify(socket: TribeSocket, message: string, level: -1 | 0 | 1 = -1): void {
  socket.emit('system_notification', { message, level });
}

/**
 * Every client event goes through here: its connection's rate limit for the event's class, the `tribe.mode` switch
 * (turned off, connections are told and closed), the connection's queue (one event at a time, in order), and one
 * place where a failure becomes an answer instead of an exception: a store outage or a room too busy is a message
 * the client can show, anything else is logged. Nothing a client sends can throw past this.
 */
@Injectable()
export class TribeEventRunner {
  private readonly logger = new Logger('TribeEvents');

  constructor(private readonly configuration: ServerConfigurationService) {}

  async run<T>(
    socket: TribeSocket,
    event: string,
    eventClass: TribeEventClass,
    work: () => Promise<T>,
    failed: (message: string) => T,
  ): Promise<T> {
    const verdict = socket.data.limiter.hit(eventClass, Date.now());
    if (verdict === 'abusive') {
      notify(socket, 'Disconnected: too many requests');
      socket.disconnect(true);
      return failed('Too many requests');
    }
    if (verdict === 'limited') return failed('Too many requests, slow down');
    const queued = socket.data.queue.run(async () => {
      if (!socket.connected) return failed('Disconnected');
      if ((await this.configuration.get()).tribe.mode === 'disabled') {
        notify(socket, DISABLED);
        socket.disconnect(true);
        return failed(DISABLED);
      }
      return work();
    });
    if (!queued) return failed('Too many requests waiting, slow down');
    try {
      return await queued;
    } catch (e) {
      if (e instanceof RoomBusyError) return failed('The room is busy, please try again');
      if (isStoreUnavailable(e)) {
        this.logger.warn({ event, err: (e as Error).message }, 'store unavailable');
        return failed(UNAVAILABLE);
      }
      this.logger.error(
        { event, err: e instanceof Error ? { message: e.message, stack: e.stack } : String(e) },
        'event failed',
      );
      return failed('Something went wrong');
    }
  }
}
