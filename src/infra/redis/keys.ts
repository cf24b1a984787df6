/**
 * Redis key builders. Every key a multi-key script touches shares one hash tag (`{...}`), so the scripts keep working
 * on Redis Cluster, where all keys of a script must live in one slot.
 */
function tag(value: string): string {
  // Braces inside the tagged part would end the tag early.
  return `{${value.replace(/[{}]/g, '_')}}`;
}

function boardKeys(board: string): { scores: string; entries: string } {
  return { scores: `lb:${tag(board)}:scores`, entries: `lb:${tag(board)}:entries` };
}

export const redisKeys = {
  /** Fixed-window request counter of one rate-limit class for one caller (uid or IP). */
  rateLimit: (tracker: string, limitId: string) => `rl:${tag(tracker)}:${limitId}`,
  /**
   * Failed-authentication counter of one client IP. Tagged like the IP's rate-limit counters (`ip:<ip>`), so an
   * anonymous request's ban check and counters run as one script (`rateLimitUnlessBanned`) in one slot.
   */
  badAuth: (ip: string) => `badauth:${tag(`ip:${ip}`)}`,
  /** Pub/sub channel telling replicas the server configuration changed. */
  configurationChannel: () => 'config:changed',
  /** Pub/sub channel telling replicas to drop a user's cached tokens (revocation, deletion). */
  authEvictChannel: () => 'auth:evict',
  /** Pub/sub channel telling replicas to drop cached ApeKey verifications (of one key or of one user). */
  apeKeyEvictChannel: () => 'apekeys:evict',
  /** Tokens of a user issued before this instant (ms) count as revoked. */
  tokensRevokedBefore: (uid: string) => `auth:${tag(uid)}:revokedBefore`,
  /** The pending chat-platform OAuth `state` of a user (single use, short-lived). */
  chatOAuthState: (uid: string) => `chat:${tag(uid)}:oauthState`,
  /** A daily board (UTC day start in ms): scores (sorted set) and entries (hash) in one slot. */
  dailyLeaderboard: (day: number, language: string, mode: string, mode2: string) =>
    boardKeys(`daily:${language}:${mode}:${mode2}:${day}`),
  /**
   * Outcomes of result submissions (accepted, held, refused per check) counted per minute and per hour by every
   * replica, for the refusal rates an operator watches; one hash tag, so a replica flushes them in one pipeline.
   */
  submissionOutcomes: (unit: 'minute' | 'hour', index: number) =>
    `results:${tag('outcomes')}:${unit}:${index}`,
  /** The weekly XP board of the ISO week starting at `weekStart` (ms): scores and entries in one slot. */
  weeklyXpLeaderboard: (weekStart: number) => boardKeys(`weekly-xp:${weekStart}`),
  /** A Tribe room (hash: version, state, config) and its racers' last progress, in one slot. */
  tribeRoom: (roomId: string) => ({
    room: `tribe:${tag(`room:${roomId}`)}`,
    progress: `tribe:${tag(`room:${roomId}`)}:progress`,
  }),
  /** Tribe's shared index (one slot): room summaries, public rooms, due room timers, live replicas. */
  tribeIndex: () => ({
    rooms: `tribe:${tag('tribe')}:rooms`,
    publicRooms: `tribe:${tag('tribe')}:public`,
    schedule: `tribe:${tag('tribe')}:schedule`,
    replicas: `tribe:${tag('tribe')}:replicas`,
  }),
  /** The connections a Tribe replica holds (hash: player id to room id, '' when in none). */
  tribeReplica: (replicaId: string) => `tribe:${tag('tribe')}:replica:${replicaId}`,
  /** Held by the replica that cleans up after a dead one, or that collects forgotten rooms. */
  tribeLock: (what: string) => `tribe:${tag('tribe')}:lock:${what}`,
};
