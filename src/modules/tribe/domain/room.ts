/**
 * A Tribe room as the server keeps it, and the views of it the original client reads (its `types.ts`: `Room`,
 * `User`, `PublicRoomData`). What only the server needs (accounts, ban keys, replicas, timers) never leaves it.
 */

export const ROOM_STATES = [
  'LOBBY',
  'RACE_INIT',
  'RACE_COUNTDOWN',
  'RACE_ONGOING',
  'RACE_ONE_FINISHED',
  'RACE_AWAITING_RESULTS',
  'SHOWING_RESULTS',
  'READY_TO_CONTINUE',
] as const;
export type RoomState = (typeof ROOM_STATES)[number];

/** States between races: the leader may change the room, members get ready or take a break. */
export const BETWEEN_RACES: readonly RoomState[] = ['LOBBY', 'SHOWING_RESULTS', 'READY_TO_CONTINUE'];
/** The leader may start a race from these (the client enables its start button only then). */
export const STARTABLE: readonly RoomState[] = ['LOBBY', 'READY_TO_CONTINUE'];
/** Racers type and send progress (the client's `isRaceActive`). */
export const RACE_ACTIVE: readonly RoomState[] = ['RACE_ONGOING', 'RACE_ONE_FINISHED'];
/** A result is taken while the race runs and until the results are shown. */
export const ACCEPTS_RESULTS: readonly RoomState[] = [
  'RACE_ONGOING',
  'RACE_ONE_FINISHED',
  'RACE_AWAITING_RESULTS',
];

export interface CustomTextSettings {
  text: string[];
  mode: 'repeat' | 'random' | 'shuffle';
  pipeDelimiter: boolean;
  limit: { mode: 'word' | 'time' | 'section'; value: number };
}

/** The test settings a room imposes: the keys the client marks `tribeBlocked`, and its custom text. */
export interface RoomConfig {
  punctuation: boolean;
  numbers: boolean;
  words: number;
  time: number;
  mode: 'time' | 'words' | 'quote' | 'custom' | 'zen';
  quoteLength: number[];
  language: string;
  difficulty: string;
  minWpm: string;
  minWpmCustomSpeed: number;
  minAcc: string;
  minAccCustom: number;
  minBurst: string;
  minBurstCustomSpeed: number;
  funbox: string[];
  customLayoutfluid: string[];
  customPolyglot: string[];
  strictSpace: boolean;
  stopOnError: string;
  lazyMode: boolean;
  customText: CustomTextSettings;
}

export interface ResultResolve {
  login: boolean;
  bailedOut: boolean;
  valid?: false;
  invalidReason?: string;
  failed?: true;
  failedReason?: string;
  saved?: boolean;
  isPb?: boolean;
  saveFailedMessage?: string;
}

/** What a racer reports at the end of its test (the client's `Result`), checked and bounded. */
export interface RaceResult {
  wpm: number;
  raw: number;
  acc: number;
  consistency: number;
  testDuration: number;
  charStats: [number, number, number, number];
  chartData: { wpm: number[]; burst: number[]; err: number[] };
  resolve: ResultResolve;
}

/** Live figures of a racer (the client's `UserProgressOut`), checked and bounded. */
export interface Progress {
  wpm: number;
  raw: number;
  acc: number;
  progress: number;
  wordIndex: number;
  letterIndex: number;
  afk: boolean;
}

/** Who a connection is: a verified account, or a name the client chose. */
export interface Identity {
  /** The player id the client sees (its socket id). */
  id: string;
  name: string;
  /** The account behind a verified ID token; null for an unverified player. */
  uid: string | null;
  /** A hash of the client's address: what bans an unverified player. */
  addressKey: string;
  /** The replica holding the connection. */
  replica: string;
}

export interface Member extends Identity {
  /** Join order: the leader passes to the member who joined first. */
  joinSeq: number;
  isLeader: boolean;
  isReady: boolean;
  isAfk: boolean;
  isChatting: boolean;
  /** A racer of the current race (ready or leader, and not away, when it started). */
  isTyping: boolean;
  isFinished: boolean;
  points: number;
  result: RaceResult | null;
}

export type TimerKind = 'init' | 'countdown' | 'race' | 'finish' | 'results' | 'ready';

/** The room's one pending timer: when it is due, and what is left of a countdown. */
export interface Timer {
  kind: TimerKind;
  at: number;
  remaining: number;
}

export interface Room {
  id: string;
  name: string;
  isPrivate: boolean;
  state: RoomState;
  seed: number;
  updateRate: number;
  config: RoomConfig;
  members: Record<string, Member>;
  nextJoinSeq: number;
  /** `uid:<uid>` of banned accounts, `addr:<hash>` of banned unverified players. */
  bans: string[];
  timer: Timer | null;
}

export interface ClientUser {
  id: string;
  name: string;
  isLeader: boolean;
  isReady: boolean;
  isAfk: boolean;
  isChatting: boolean;
  isTyping: boolean;
  isFinished: boolean;
  points: number;
}

export interface ClientRoom {
  id: string;
  state: RoomState;
  users: Record<string, ClientUser>;
  size: number;
  updateRate: number;
  isPrivate: boolean;
  name: string;
  config: RoomConfig;
  maxRaw: number;
  maxWpm: number;
  minRaw: number;
  minWpm: number;
  seed: number;
}

export interface PublicRoom {
  id: string;
  size: number;
  name: string;
  state: RoomState;
  config: RoomConfig;
}

export function clientUser(member: Member): ClientUser {
  return {
    id: member.id,
    name: member.name,
    isLeader: member.isLeader,
    isReady: member.isReady,
    isAfk: member.isAfk,
    isChatting: member.isChatting,
    isTyping: member.isTyping,
    isFinished: member.isFinished,
    points: member.points,
  };
}

/** Members in join order. */
export function membersOf(room: Room): Member[] {
  return Object.values(room.members).sort((a, b) => a.joinSeq - b.joinSeq);
}

export function clientRoom(room: Room): ClientRoom {
  const users: Record<string, ClientUser> = {};
  for (const member of membersOf(room)) users[member.id] = clientUser(member);
  return {
    id: room.id,
    state: room.state,
    users,
    size: Object.keys(users).length,
    updateRate: room.updateRate,
    isPrivate: room.isPrivate,
    name: room.name,
    config: room.config,
    maxRaw: 0,
    maxWpm: 0,
    minRaw: 0,
    minWpm: 0,
    seed: room.seed,
  };
}

/**
 * A room in the public list: the client renders it with `getConfigString`, which never reads the custom text, so
 * the words stay out of the list (they can be 100 KB a room).
 */
export function publicRoom(room: Room): PublicRoom {
  return {
    id: room.id,
    size: Object.keys(room.members).length,
    name: room.name,
    state: room.state,
    config: { ...room.config, customText: { ...room.config.customText, text: [] } },
  };
}
