import { TRIBE_LIMITS } from './limits';
import {
  acceptResult,
  afterDeparture,
  backToLobby,
  endReadyTimer,
  everyoneReady,
  initRace,
  runTimer,
} from './race-flow';
import {
  BETWEEN_RACES,
  clientRoom,
  clientUser,
  membersOf,
  STARTABLE,
  type Identity,
  type Member,
  type RaceResult,
  type Room,
  type RoomConfig,
} from './room';
import { chatMessage, defaultRoomName, escapeChat, roomNameProblem, sameName } from './text';
import { Transition, type Context, type Effect, type Outcome } from './transition';

/**
 * The room state machine: every command a client (or a timer) can give a room, as a pure function from the room to
 * the room afterwards and what to tell whom. No I/O: the service loads the room, applies one command, stores the
 * result if nothing changed meanwhile (or tries again), then carries out the effects.
 */

export type LeaveReason = 'left' | 'disconnected' | 'banned' | 'displaced';

export type Command =
  | { type: 'join'; identity: Identity }
  | { type: 'leave'; memberId: string; reason: LeaveReason }
  | { type: 'rename'; by: string; name: string }
  | { type: 'toggleVisibility'; by: string }
  | { type: 'giveLeader'; by: string; target: string }
  | { type: 'ban'; by: string; target: string }
  | { type: 'updateConfig'; by: string; config: RoomConfig }
  | { type: 'ready'; by: string }
  | { type: 'afk'; by: string; isAfk: boolean }
  | { type: 'chatting'; by: string; isChatting: boolean }
  | { type: 'chat'; by: string; message: string }
  | { type: 'initRace'; by: string; seed: number }
  | { type: 'result'; by: string; result: RaceResult }
  | { type: 'backToLobby'; by: string }
  | { type: 'timer' };

export const NOT_LEADER = 'Only the room leader can do that';
export const NOT_BETWEEN_RACES = 'That cannot be changed during a race';

function newMember(identity: Identity, joinSeq: number): Member {
  return {
    ...identity,
    joinSeq,
    isLeader: false,
    isReady: false,
    isAfk: false,
    isChatting: false,
    isTyping: false,
    isFinished: false,
    points: 0,
    result: null,
  };
}

/** A new room, its creator in it as the leader. */
export function createRoom(input: {
  id: string;
  creator: Identity;
  config: RoomConfig;
  isPrivate: boolean;
  seed: number;
  ctx: Context;
}): { room: Room; effects: Effect[] } {
  const leader = { ...newMember(input.creator, 0), isLeader: true };
  const room: Room = {
    id: input.id,
    name: defaultRoomName(input.creator.name),
    isPrivate: input.isPrivate,
    state: 'LOBBY',
    seed: input.seed,
    updateRate: input.ctx.timings.updateRateMs,
    config: input.config,
    members: { [leader.id]: leader },
    nextJoinSeq: 1,
    bans: [],
    timer: null,
  };
  return {
    room,
    effects: [
      { kind: 'channel-join', memberId: leader.id },
      { kind: 'emit', to: { member: leader.id }, event: 'room_joined', data: { room: clientRoom(room) } },
    ],
  };
}

function setLeader(t: Transition, target: Member): void {
  for (const member of Object.values(t.room.members)) member.isLeader = member.id === target.id;
  // What the client sets on `room_leader_changed`: a leader is neither away nor "ready".
  target.isAfk = false;
  target.isReady = false;
  t.changed = true;
  t.toRoom('room_leader_changed', { userId: target.id });
}

function banKey(member: Member): string {
  return member.uid !== null ? `uid:${member.uid}` : `addr:${member.addressKey}`;
}

function join(t: Transition, identity: Identity): void {
  const room = t.room;
  if (room.members[identity.id]) return;
  const banned =
    identity.uid !== null
      ? room.bans.includes(`uid:${identity.uid}`)
      : room.bans.includes(`addr:${identity.addressKey}`);
  if (banned) return t.refuse('You are banned from this room');
  if (Object.keys(room.members).length >= TRIBE_LIMITS.roomCapacity) return t.refuse('Room is full');
  for (const member of membersOf(room)) {
    if (!sameName(member.name, identity.name)) continue;
    // A verified name belongs to its account in the room: an unverified player may not use it, and one who already
    // does makes way (the client cannot rename a member in place).
    if (member.uid !== null && member.uid !== identity.uid)
      return t.refuse(`The name ${identity.name} belongs to a signed-in player in this room`);
    if (member.uid === null && identity.uid !== null) leave(t, member.id, 'displaced');
  }
  const member = newMember(identity, room.nextJoinSeq);
  room.nextJoinSeq += 1;
  room.members[member.id] = member;
  // The member who made way may have been the last one: the room lives on with the newcomer leading it.
  t.deleted = false;
  t.changed = true;
  t.effects.push({ kind: 'channel-join', memberId: member.id });
  t.toRoom('room_player_joined', { user: clientUser(member) }, member.id);
  if (!membersOf(room).some((m) => m.isLeader)) setLeader(t, member);
}

function leave(t: Transition, memberId: string, reason: LeaveReason): void {
  const member = t.room.members[memberId];
  if (!member) return;
  delete t.room.members[memberId];
  t.changed = true;
  t.effects.push({ kind: 'channel-leave', memberId }, { kind: 'removed', memberId });
  if (reason !== 'disconnected') t.toMember(memberId, 'room_left');
  if (reason === 'banned') t.notify(memberId, 'You have been banned from this room');
  if (reason === 'displaced')
    t.notify(
      memberId,
      `A signed-in player named ${member.name} joined the room: change your name to join again`,
    );
  const rest = membersOf(t.room);
  if (rest.length === 0) {
    t.deleted = true;
    return;
  }
  t.toRoom('room_player_left', { userId: memberId });
  if (member.isLeader) setLeader(t, rest[0] as Member);
  afterDeparture(t);
}

/** The member giving a command, if it is in the room (and the leader, when `leaderOnly`). */
function actor(t: Transition, id: string, leaderOnly = false): Member | null {
  const member = t.room.members[id];
  if (!member) {
    t.refuse('You are not in this room');
    return null;
  }
  if (leaderOnly && !member.isLeader) {
    t.refuse(NOT_LEADER);
    return null;
  }
  return member;
}

function betweenRaces(t: Transition): boolean {
  if (BETWEEN_RACES.includes(t.room.state)) return true;
  t.refuse(NOT_BETWEEN_RACES);
  return false;
}

function ready(t: Transition, member: Member): void {
  if (member.isLeader || member.isReady) return;
  if (member.isAfk) return t.refuse('Come back from your break first');
  if (!betweenRaces(t)) return;
  member.isReady = true;
  t.changed = true;
  t.toRoom('room_user_is_ready', { userId: member.id });
  if (t.room.state === 'SHOWING_RESULTS' && everyoneReady(t.room)) endReadyTimer(t);
}

function afk(t: Transition, member: Member, isAfk: boolean): void {
  if (member.isAfk === isAfk) return;
  if (member.isLeader) return t.refuse('The leader cannot take a break');
  if (isAfk && member.isReady) return t.refuse('You are ready: you cannot take a break now');
  if (!betweenRaces(t)) return;
  member.isAfk = isAfk;
  t.changed = true;
  t.toRoom('room_user_afk_update', { userId: member.id, isAfk });
  if (t.room.state === 'SHOWING_RESULTS' && everyoneReady(t.room)) endReadyTimer(t);
}

function ban(t: Transition, leader: Member, targetId: string): void {
  const target = t.room.members[targetId];
  if (!target || target.id === leader.id) return t.refuse('No such player in this room');
  const key = banKey(target);
  if (!t.room.bans.includes(key)) t.room.bans.push(key);
  if (t.room.bans.length > TRIBE_LIMITS.bansPerRoom)
    t.room.bans.splice(0, t.room.bans.length - TRIBE_LIMITS.bansPerRoom);
  leave(t, target.id, 'banned');
  t.toRoom('room_chat_message', { message: escapeChat(`${target.name} has been banned`), isSystem: true });
}

/** Applies one command to a room. */
export function apply(room: Room, command: Command, ctx: Context): Outcome {
  const t = new Transition(room, ctx);
  switch (command.type) {
    case 'join':
      join(t, command.identity);
      break;
    case 'leave':
      leave(t, command.memberId, command.reason);
      break;
    case 'timer':
      runTimer(t);
      break;
    default:
      command satisfies Exclude<Command, { type: 'join' | 'leave' | 'timer' }>;
      byMember(t, command);
  }
  return t.outcome();
}

function byMember(t: Transition, command: Exclude<Command, { type: 'join' | 'leave' | 'timer' }>): void {
  const leaderOnly = [
    'rename',
    'toggleVisibility',
    'giveLeader',
    'ban',
    'updateConfig',
    'initRace',
    'backToLobby',
  ];
  const member = actor(t, command.by, leaderOnly.includes(command.type));
  if (!member) return;
  switch (command.type) {
    case 'rename': {
      if (!betweenRaces(t)) return;
      const problem = roomNameProblem(command.name);
      if (problem) return t.refuse(problem);
      if (command.name === t.room.name) return;
      t.room.name = command.name;
      t.changed = true;
      return t.toRoom('room_name_changed', { name: command.name });
    }
    case 'toggleVisibility':
      if (!betweenRaces(t)) return;
      t.room.isPrivate = !t.room.isPrivate;
      t.changed = true;
      return t.toRoom('room_visibility_changed', { isPrivate: t.room.isPrivate });
    case 'giveLeader': {
      const target = t.room.members[command.target];
      if (!target || target.id === member.id) return t.refuse('No such player in this room');
      return setLeader(t, target);
    }
    case 'ban':
      return ban(t, member, command.target);
    case 'updateConfig':
      if (!betweenRaces(t)) return;
      t.room.config = command.config;
      t.changed = true;
      // The client answers this one (its handler calls back once the config is applied).
      t.effects.push({
        kind: 'emit',
        to: { room: true },
        event: 'room_config_changed',
        data: { config: command.config },
        withAck: true,
      });
      return;
    case 'ready':
      return ready(t, member);
    case 'afk':
      return afk(t, member, command.isAfk);
    case 'chatting':
      if (member.isChatting === command.isChatting) return;
      member.isChatting = command.isChatting;
      t.changed = true;
      return t.toRoom('room_chatting_changed', { userId: member.id, isChatting: command.isChatting });
    case 'chat': {
      const message = chatMessage(command.message);
      if (message === null)
        return t.refuse(`A message must have 1 to ${TRIBE_LIMITS.chatMaxLength} characters`);
      return t.toRoom('room_chat_message', { message, from: clientUser(member), isSystem: false });
    }
    case 'initRace':
      if (!STARTABLE.includes(t.room.state)) return t.refuse('A race is already under way');
      return initRace(t, command.seed);
    case 'result':
      if (!acceptResult(t, member, command.result)) t.refuse('Your result was not expected now');
      return;
    case 'backToLobby':
      if (t.room.state === 'READY_TO_CONTINUE') backToLobby(t);
      else if (t.room.state !== 'LOBBY') t.refuse('Wait for the results first');
      return;
  }
}
