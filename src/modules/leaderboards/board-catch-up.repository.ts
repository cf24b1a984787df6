import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import { FUNBOXES } from '../results/domain/funboxes';
import type { ResultSavedEvent } from '../results/result-hooks';
import type { DailyCandidate } from './daily-leaderboard.service';
import { DAY_MS, type BoardKey } from './leaderboard-rules';
import type { WeeklyTotal } from './weekly-xp-leaderboard.service';

/** Funboxes a personal best (and so a daily entry) may be set with (contract facts §13.3). */
const PB_FUNBOXES = Object.entries(FUNBOXES)
  .filter(([, funbox]) => funbox.canGetPb)
  .map(([name]) => name);

interface AccountColumns {
  name: string;
  banned: boolean;
  lb_opt_out: boolean;
  time_typing: number;
  premium_expires_at: number | null;
  inventory_badges: unknown;
  chat_id: string | null;
  chat_avatar: string | null;
  streak_length: number;
}

// The user as the boards show them; eligibility is judged on the user as they are now (the hook judges the time typed
// before the result: a user who crossed the threshold with a result of that day may enter at catch-up).
const ACCOUNT = sql`u.name, u.banned, u.lb_opt_out, u.time_typing, u.premium_expires_at, u.inventory_badges,
  u.chat_id, u.chat_avatar, u.streak_length`;

// Results held for review (or rejected) are on no board; approved ones are.
const ON_BOARDS = sql`NOT EXISTS (
  SELECT 1 FROM result_reviews rv WHERE rv.result_id = r.id AND rv.status <> 'approved')`;

function eligibleUsers(minTimeTyping: number | null) {
  return sql`NOT u.banned AND NOT u.lb_opt_out
    AND (${minTimeTyping}::bigint IS NULL OR u.time_typing > ${minTimeTyping}::bigint)`;
}

function accountOf(row: AccountColumns): ResultSavedEvent['account'] {
  const badges = Array.isArray(row.inventory_badges)
    ? (row.inventory_badges as { id: number; selected?: boolean }[])
    : [];
  return {
    name: row.name,
    banned: row.banned,
    lbOptOut: row.lb_opt_out,
    timeTypingBefore: row.time_typing,
    premiumExpiresAt: row.premium_expires_at,
    selectedBadgeId: badges.find((badge) => badge.selected === true)?.id,
    chatId: row.chat_id,
    chatAvatar: row.chat_avatar,
    streak: row.streak_length,
  };
}

/**
 * The daily and weekly XP boards as PostgreSQL knows them (board catch-up after a Redis outage or a crash between a
 * submission's commit and its board writes). Reads a day's or a week's results through the BRIN index on timestamp.
 */
@Injectable()
export class BoardCatchUpRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /**
   * Each eligible user's best qualifying result of the UTC day starting at `day` on `board` (wpm, then accuracy,
   * then the earlier result, as the daily score orders them), the best `limit` of them.
   */
  async dailyBests(
    day: number,
    board: BoardKey,
    limit: number,
    minTimeTyping: number | null,
  ): Promise<DailyCandidate[]> {
    const { rows } = await sql<
      AccountColumns & {
        uid: string;
        timestamp: number;
        wpm: number;
        raw_wpm: number;
        acc: number;
        consistency: number;
      }
    >`
      SELECT * FROM (
        SELECT DISTINCT ON (r.uid) r.uid, r.timestamp, r.wpm, r.raw_wpm, r.acc, r.consistency, ${ACCOUNT}
        FROM results r JOIN users u ON u.uid = r.uid
        WHERE r.timestamp >= ${day}::bigint AND r.timestamp < ${day + DAY_MS}::bigint
          AND r.language = ${board.language} AND r.mode = ${board.mode} AND r.mode2 = ${board.mode2}
          AND NOT r.bailed_out AND (NOT r.stop_on_letter OR r.acc >= 100)
          AND r.funbox <@ ${PB_FUNBOXES}::text[]
          AND ${eligibleUsers(minTimeTyping)} AND ${ON_BOARDS}
        ORDER BY r.uid, r.wpm DESC, r.acc DESC, r.timestamp ASC
      ) best
      ORDER BY wpm DESC, acc DESC, timestamp ASC
      LIMIT ${limit}`.execute(this.db);
    return rows.map((row) => ({
      uid: row.uid,
      timestamp: row.timestamp,
      board,
      wpm: row.wpm,
      rawWpm: row.raw_wpm,
      acc: row.acc,
      consistency: row.consistency,
      account: accountOf(row),
    }));
  }

  /** Each eligible user's XP of the ISO week starting at `weekStart`, with the time typed in the results that earned it. */
  async weeklyTotals(
    weekStart: number,
    weekMs: number,
    minTimeTyping: number | null,
  ): Promise<WeeklyTotal[]> {
    const { rows } = await sql<
      AccountColumns & {
        uid: string;
        xp: number;
        seconds: number;
        last_timestamp: number;
        last_result_id: string;
      }
    >`
      SELECT r.uid, sum(r.xp)::bigint AS xp,
        sum(r.test_duration + r.incomplete_test_seconds - r.afk_duration)::float8 AS seconds,
        max(r.timestamp) AS last_timestamp,
        (array_agg(r.id ORDER BY r.timestamp DESC, r.id DESC))[1] AS last_result_id,
        ${ACCOUNT}
      FROM results r JOIN users u ON u.uid = r.uid
      WHERE r.timestamp >= ${weekStart}::bigint AND r.timestamp < ${weekStart + weekMs}::bigint
        AND r.xp > 0 AND ${eligibleUsers(minTimeTyping)} AND ${ON_BOARDS}
      GROUP BY r.uid, u.uid`.execute(this.db);
    return rows.map((row) => ({
      uid: row.uid,
      weekStart,
      xp: Number(row.xp),
      seconds: Number(row.seconds),
      lastTimestamp: Number(row.last_timestamp),
      lastResultId: row.last_result_id,
      account: accountOf(row),
    }));
  }
}
