import type { Server, Socket } from 'socket.io';
import type { RateLimitClass } from '../../common/rate-limit/rate-limit-classes';
import { TRIBE_LIMITS } from './domain/limits';
import type { Identity } from './domain/room';

/** The per-connection limits of `src/common/rate-limit/classes/tribe.ts`, resolved for this process. */
export type TribeEventLimits = Record<TribeEventClass, RateLimitClass>;
export type TribeEventClass =
  'tribeProgress' | 'tribeChat' | 'tribeRoomAction' | 'tribeSystem' | 'tribeResult';

/**
 * Fixed-window counters of one connection, one per event class. A connection that goes far past a limit (several
 * times over in one window) is not a client having a bad moment: it is disconnected.
 */
export class ConnectionLimiter {
  private readonly windows = new Map<TribeEventClass, { hits: number; resetAt: number }>();

  constructor(private readonly limits: TribeEventLimits) {}

  /** 'ok', 'limited' (drop the event), or 'abusive' (drop the connection). */
  hit(eventClass: TribeEventClass, now: number): 'ok' | 'limited' | 'abusive' {
    const limit = this.limits[eventClass];
    let window = this.windows.get(eventClass);
    if (!window || window.resetAt <= now) {
      window = { hits: 0, resetAt: now + limit.windowMs };
      this.windows.set(eventClass, window);
    }
    window.hits += 1;
    if (window.hits <= limit.max) return 'ok';
    return window.hits > limit.max * 5 ? 'abusive' : 'limited';
  }
}

/**
 * Runs one connection's events one after the other, in the order they came: a client's events depend on each
 * other (join, then chat), and the room store is read and written per event. A connection with too many events
 * waiting has the new ones dropped rather than queued without bound.
 */
export class EventQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  run<T>(work: () => Promise<T>): Promise<T> | null {
    if (this.waiting >= TRIBE_LIMITS.queuedEventsPerConnection) return null;
    this.waiting += 1;
    const result = this.tail.then(work).finally(() => {
      this.waiting -= 1;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Settles once everything queued so far has run. */
  drained(): Promise<unknown> {
    return this.tail;
  }
}

export interface TribeSocketData {
  identity: Identity;
  /** The room this connection's player is in, as far as this replica knows (the room itself is the truth). */
  roomId: string | null;
  limiter: ConnectionLimiter;
  queue: EventQueue;
  /** The address the connection counts against (its share of `connectionsPerAddress`). */
  address: string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyEvents = Record<string, (...args: any[]) => void>;
export type TribeSocket = Socket<AnyEvents, AnyEvents, AnyEvents, TribeSocketData>;
export type TribeServer = Server<AnyEvents, AnyEvents, AnyEvents, TribeSocketData>;
