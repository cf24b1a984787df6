import { Inject, Injectable } from '@nestjs/common';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { RedisUnavailableError } from '../../infra/redis/redis-health';
import type { MemberRow } from '../../infra/redis/scripts/leaderboards.lua';

export interface BoardKeys {
  scores: string;
  entries: string;
}

export interface StoredRow {
  uid: string;
  score: number;
  /** 0-based position on the whole board. */
  index: number;
  entry: Record<string, unknown>;
}

export interface StoredPage {
  count: number;
  lowestScore: number | null;
  rows: StoredRow[];
}

function parseEntry(json: string | null): Record<string, unknown> | null {
  if (json === null) return null;
  try {
    return JSON.parse(json) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * Daily and weekly XP boards in Redis: a sorted set of scores and a hash of entries per board (keys from
 * `redisKeys`, one hash tag each). Every multi-key step is one Lua script, so it is atomic and Cluster-safe.
 */
@Injectable()
export class BoardStoreRepository {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** 0-based rank when the entry improved and stayed on the board, else -1. */
  addDaily(
    keys: BoardKeys,
    uid: string,
    score: number,
    entry: object,
    maxResults: number,
    ttlMs: number,
  ): Promise<number> {
    return this.redis.dailyLeaderboardAdd(
      keys.scores,
      keys.entries,
      maxResults,
      ttlMs,
      uid,
      score,
      JSON.stringify(entry),
    );
  }

  /** 0-based rank after adding (a retry of the same result id adds nothing). */
  addWeeklyXp(
    keys: BoardKeys,
    uid: string,
    xp: number,
    seconds: number,
    resultId: string,
    entry: object,
    ttlMs: number,
  ): Promise<number> {
    return this.redis.weeklyXpLeaderboardAdd(
      keys.scores,
      keys.entries,
      xp,
      ttlMs,
      uid,
      JSON.stringify(entry),
      seconds,
      resultId,
    );
  }

  /** Catch-up: sets a user's weekly total from PostgreSQL; false when a newer live write made it wait a pass. */
  async setWeeklyXp(
    keys: BoardKeys,
    uid: string,
    xp: number,
    entry: object,
    ttlMs: number,
  ): Promise<boolean> {
    const written = await this.redis.weeklyXpLeaderboardSet(
      keys.scores,
      keys.entries,
      xp,
      ttlMs,
      uid,
      JSON.stringify(entry),
    );
    return written === 1;
  }

  /** Whether the board store is connected now: writes that can catch up later are skipped while it is not. */
  get available(): boolean {
    return this.redis.status === 'ready';
  }

  /** Positions `first`..`last` (0-based, best first). */
  async page(keys: BoardKeys, first: number, last: number): Promise<StoredPage> {
    this.assertAvailable();
    const [count, lowest, rows] = await this.redis.leaderboardPage(keys.scores, keys.entries, first, last);
    return {
      count: Number(count),
      lowestScore: lowest === null ? null : Number(lowest),
      rows: this.toRows(rows.map(([uid, score, entry], i) => [uid, score, first + i, entry])),
    };
  }

  /** The given users that are on the board, best first. */
  async members(keys: BoardKeys, uids: string[]): Promise<StoredRow[]> {
    if (uids.length === 0) return [];
    this.assertAvailable();
    const rows = await this.redis.leaderboardMembers(keys.scores, keys.entries, ...uids);
    return this.toRows(rows).sort((a, b) => a.index - b.index);
  }

  /**
   * Removes a user from the given boards. Separate commands, not one pipeline: on a Redis Cluster a pipeline must stay
   * on one node and the boards live in different slots; on one server, auto-pipelining still sends them in one write.
   * Every command runs even if one fails (each is idempotent), then the first failure is thrown.
   */
  async remove(boards: BoardKeys[], uid: string): Promise<void> {
    if (boards.length === 0) return;
    const outcomes = await Promise.allSettled(
      boards.flatMap((keys) => [this.redis.zrem(keys.scores, uid), this.redis.hdel(keys.entries, uid)]),
    );
    const failed = outcomes.find((o) => o.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /** Reads fail at once while Redis is down instead of waiting for the command timeout. */
  private assertAvailable(): void {
    if (!this.available) throw new RedisUnavailableError();
  }

  private toRows(rows: (MemberRow | [string, string, number, string | null])[]): StoredRow[] {
    const out: StoredRow[] = [];
    for (const [uid, score, index, json] of rows) {
      const entry = parseEntry(json);
      // A score without its entry cannot be shown; the next write of that user repairs it.
      if (entry) out.push({ uid, score: Number(score), index: Number(index), entry });
    }
    return out;
  }
}
