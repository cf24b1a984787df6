import type { Progress, Room } from './room';

/** A racer's progress as the client reads it: its own figures plus its speed relative to the fastest racer. */
export interface UserProgress extends Progress {
  wpmProgress: number;
}

export interface ProgressBroadcast {
  users: Record<string, UserProgress>;
  roomMaxRaw: number;
  roomMaxWpm: number;
  roomMinRaw: number;
  roomMinWpm: number;
}

/** Whether a member races in the current race (typing now, or finished it). */
export function isRacer(room: Pick<Room, 'members'>, id: string): boolean {
  const member = room.members[id];
  return member !== undefined && (member.isTyping || member.isFinished);
}

/**
 * One `room_progress_update`: the last figures of every racer that sent some, and the room's range of speeds (the
 * client scales its delta bar by them; in time mode its bars show `wpmProgress`, the share of the fastest speed).
 * A racer who sent nothing yet is left out: a tick goes unanswered before a racer's timer starts and after it ends.
 */
export function progressBroadcast(
  room: Pick<Room, 'members'>,
  latest: Record<string, Progress>,
): ProgressBroadcast {
  const entries = Object.entries(latest).filter(([id]) => isRacer(room, id));
  const wpms = entries.map(([, p]) => p.wpm);
  const raws = entries.map(([, p]) => p.raw);
  const roomMaxWpm = wpms.length > 0 ? Math.max(...wpms) : 0;
  const users: Record<string, UserProgress> = {};
  for (const [id, p] of entries)
    users[id] = { ...p, wpmProgress: roomMaxWpm > 0 ? Math.round((p.wpm / roomMaxWpm) * 100) : 0 };
  return {
    users,
    roomMaxRaw: raws.length > 0 ? Math.max(...raws) : 0,
    roomMaxWpm,
    roomMinRaw: raws.length > 0 ? Math.min(...raws) : 0,
    roomMinWpm: wpms.length > 0 ? Math.min(...wpms) : 0,
  };
}
