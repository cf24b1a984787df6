import calculateSlot from 'cluster-key-slot';
import { redisKeys } from './keys';
import { REDIS_SCRIPTS } from './scripts';

/**
 * On a Redis Cluster every key of one script call must hash to one slot (else CROSSSLOT). The keys each script is
 * called with, as the repositories build them; a script added to REDIS_SCRIPTS without a row here fails the test.
 */
const board = (keys: { scores: string; entries: string }) => [keys.scores, keys.entries];
const boards = [
  redisKeys.dailyLeaderboard(1_764_028_800_000, 'english', 'time', '15'),
  redisKeys.dailyLeaderboard(1_764_028_800_000, 'english', 'time', '60'),
  redisKeys.dailyLeaderboard(0, 'code_{javascript}', 'words', '}{'),
  redisKeys.weeklyXpLeaderboard(1_763_942_400_000),
].map(board);
// A room's two keys, as the Tribe room repository builds them (room codes are 6 hex digits).
const tribeRooms = ['a1b2c3', '000000'].map((id) => [
  redisKeys.tribeRoom(id).room,
  redisKeys.tribeRoom(id).progress,
]);
const SCRIPT_KEYS: Record<string, string[][]> = {
  rateLimitIncrement: [[redisKeys.rateLimit('uid-1', 'resultsAdd')], [redisKeys.rateLimit('{ip}', 'global')]],
  rateLimitAdd: [[redisKeys.badAuth('203.0.113.9')], [redisKeys.badAuth('2001:db8::1')]],
  // An anonymous request: the IP's ban key and its counters, as the rate-limit guard builds them.
  rateLimitUnlessBanned: ['203.0.113.9', '2001:db8::1'].map((ip) => [
    redisKeys.badAuth(ip),
    redisKeys.rateLimit(`ip:${ip}`, 'global'),
    redisKeys.rateLimit(`ip:${ip}`, 'resultsGet'),
  ]),
  dailyLeaderboardAdd: boards,
  weeklyXpLeaderboardAdd: boards,
  weeklyXpLeaderboardSet: boards,
  leaderboardPage: boards,
  leaderboardMembers: boards,
  tribeRoomSave: tribeRooms,
  tribeProgressSet: tribeRooms,
  tribeRoomIndex: [[redisKeys.tribeIndex().rooms, redisKeys.tribeIndex().publicRooms]],
  tribeScheduleClaim: [[redisKeys.tribeIndex().schedule]],
  tribeScheduleSettle: [[redisKeys.tribeIndex().schedule]],
};

const PREFIXES = ['', 't0123456789abcdef:', 'production:'];

describe('Redis keys on a Cluster', () => {
  it('lists the keys of every registered script', () => {
    expect(Object.keys(SCRIPT_KEYS).sort()).toEqual(REDIS_SCRIPTS.map((s) => s.name).sort());
  });

  it.each(REDIS_SCRIPTS.map((s) => [s.name, s.numberOfKeys] as const))(
    '%s: each call’s keys share one slot, with or without a key prefix',
    (name, numberOfKeys) => {
      for (const keys of SCRIPT_KEYS[name]!) {
        expect(keys).toHaveLength(numberOfKeys);
        for (const prefix of PREFIXES) {
          const slot = calculateSlot.generateMulti(keys.map((k) => prefix + k));
          expect({ keys, prefix, slot }).toEqual({ keys, prefix, slot: calculateSlot(keys[0]!) });
          expect(slot).toBeGreaterThanOrEqual(0);
        }
      }
    },
  );

  it('spreads different boards over different slots (the tag is the board, not a constant)', () => {
    const slots = new Set(boards.map((keys) => calculateSlot(keys[0]!)));
    expect(slots.size).toBe(boards.length);
  });

  it('keeps a prefix from choosing the slot: it never holds a hash tag', () => {
    const [scores] = boards[0]!;
    expect(calculateSlot('{x}:' + scores!)).not.toBe(calculateSlot(scores!));
    expect(calculateSlot('t0123456789abcdef:' + scores!)).toBe(calculateSlot(scores!));
  });
});
