import type { TribeTimings } from './limits';
import type { Member, Room } from './room';

/** Who an emit goes to: every member of the room (but one), or one member. */
export type Target = { room: true; except?: string } | { member: string };

/** What the service does after the room was stored: tell the clients, and keep connections in step. */
export type Effect =
  | { kind: 'emit'; to: Target; event: string; data?: unknown; withAck?: true }
  /** The member's connection joins (or leaves) the room's broadcast channel. */
  | { kind: 'channel-join'; memberId: string }
  | { kind: 'channel-leave'; memberId: string }
  /** The member is out of the room: its connection forgets the room, wherever it is held. */
  | { kind: 'removed'; memberId: string }
  /** A new race: the progress of the last one is dropped, and progress ticks are scheduled. */
  | { kind: 'race-prepared' };

export interface Context {
  now: number;
  timings: TribeTimings;
}

export interface Outcome {
  /** The room afterwards; null when it is gone (its last member left). */
  room: Room | null;
  /** Whether anything changed that must be stored. */
  changed: boolean;
  effects: Effect[];
  /** Why the command was refused, for the actor (a notification), if it was. */
  refusal?: string;
}

/** Shallow copies of everything a transition may change; the config is replaced, never changed in place. */
function draftOf(room: Room): Room {
  const members: Record<string, Member> = {};
  for (const [id, member] of Object.entries(room.members)) members[id] = { ...member };
  return { ...room, members, bans: [...room.bans], timer: room.timer ? { ...room.timer } : null };
}

/** A transition in progress: a draft of the room and the effects so far. */
export class Transition {
  readonly effects: Effect[] = [];
  changed = false;
  deleted = false;
  refusal?: string;
  readonly room: Room;

  constructor(
    room: Room,
    readonly ctx: Context,
  ) {
    this.room = draftOf(room);
  }

  toRoom(event: string, data?: unknown, except?: string): void {
    this.effects.push({ kind: 'emit', to: except ? { room: true, except } : { room: true }, event, data });
  }

  toMember(memberId: string, event: string, data?: unknown): void {
    this.effects.push({ kind: 'emit', to: { member: memberId }, event, data });
  }

  /** `system_notification`: level 1 success, 0 notice, -1 error (the client's levels). */
  notify(memberId: string, message: string, level: -1 | 0 | 1 = -1): void {
    this.toMember(memberId, 'system_notification', { message, level });
  }

  refuse(message: string): void {
    this.refusal = message;
  }

  outcome(): Outcome {
    return {
      room: this.deleted ? null : this.room,
      changed: this.changed || this.deleted,
      effects: this.effects,
      ...(this.refusal === undefined ? {} : { refusal: this.refusal }),
    };
  }
}
