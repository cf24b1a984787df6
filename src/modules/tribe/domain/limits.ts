/**
 * The Tribe server's fixed limits and timings. The client's own figures are quoted where it has one; the others are
 * ours, chosen for a friendly race and a bounded server (docs/tribe.md lists them).
 */
export const TRIBE_LIMITS = {
  /** Members of one room. The client draws one progress bar and one caret per member. */
  roomCapacity: 10,
  /** The client refuses to send a longer chat message (`tribe-chat.ts`: 512). */
  chatMaxLength: 512,
  /** Room names: the client asks for a non-empty one and puts it into the public room list as HTML. */
  roomNameMaxLength: 32,
  /** A room search longer than any room name matches nothing anyway. */
  searchMaxLength: 32,
  /** Public rooms answered per `room_get_public_rooms` (the client shows one list, no pages). */
  publicRoomsPerPage: 50,
  /** Custom text of a room: words and characters in all (it is sent to every member on every change). */
  customTextMaxWords: 10_000,
  customTextMaxCharacters: 100_000,
  customTextMaxWordLength: 1_000,
  /** Bans remembered per room (oldest forgotten first). */
  bansPerRoom: 100,
  /** Seconds of chart data a relayed result may carry (one point a second: an hour). */
  chartMaxPoints: 3_600,
  /** Longest string a result's `resolve` may relay (an error message of the save, a reason). */
  resolveTextMaxLength: 200,
  /** Upper bounds of the speeds relayed (the client's result schema caps wpm and raw at 420). */
  maxWpm: 420,
  /** Socket.io message size: a room config with the largest custom text fits, with room to spare. */
  maxMessageBytes: 256 * 1024,
  /** Open connections per client address, per replica (a classroom behind one address races too). */
  connectionsPerAddress: 30,
  /** Open connections per replica; past it a replica refuses new ones (the HTTP API keeps its share of the CPU). */
  connectionsPerReplica: 10_000,
  /** Events waiting per connection; past it new ones are dropped (a client that floods waits for nobody). */
  queuedEventsPerConnection: 32,
} as const;

export interface TribeTimings {
  /** Between `room_init_race` and the countdown: the clients load the test page and the words. */
  initMs: number;
  /** The countdown before the race starts, one `room_countdown` a second. */
  countdownSeconds: number;
  /** After the first racer finished, the others have this long before they are forced to finish. */
  finishSeconds: number;
  /** After the race, results still missing are waited for this long. */
  awaitResultsMs: number;
  /** After the results, members have this long to get ready before the leader may start again. */
  readySeconds: number;
  /** A race nobody finishes ends after this long (time mode: its time plus this margin). */
  raceMarginMs: number;
  maxRaceMs: number;
  /** `room_progress_update` period (the client animates its bars over the same time, `updateRate`). */
  updateRateMs: number;
  /** How often each replica looks for due room timers. */
  schedulerPollMs: number;
  /** A replica claims a due timer for this long; if it dies meanwhile, another one runs it after this. */
  timerLeaseMs: number;
  /** Replica heartbeat period, and after how long without one a replica counts as dead. */
  heartbeatMs: number;
  deadAfterMs: number;
  /** How often a replica checks its own connections against the store, and collects forgotten rooms. */
  housekeepingMs: number;
  /** A room nobody touched for this long is gone (members refresh it while connected). */
  roomTtlMs: number;
}

export const DEFAULT_TIMINGS: TribeTimings = {
  initMs: 1_000,
  countdownSeconds: 5,
  finishSeconds: 15,
  awaitResultsMs: 5_000,
  readySeconds: 10,
  raceMarginMs: 30_000,
  maxRaceMs: 15 * 60_000,
  updateRateMs: 500,
  schedulerPollMs: 50,
  timerLeaseMs: 2_000,
  heartbeatMs: 2_000,
  deadAfterMs: 10_000,
  housekeepingMs: 15_000,
  roomTtlMs: 60 * 60_000,
};

/** The protocol version this server speaks: the `expectedVersion` of the branch's client (`tribe.ts`). */
export const TRIBE_PROTOCOL_VERSION = '25.12.4';
/** Versions accepted by `system_version_check`: the branch's built client, and its development build ("dev"). */
export const ACCEPTED_CLIENT_VERSIONS: readonly string[] = [TRIBE_PROTOCOL_VERSION, 'dev'];
