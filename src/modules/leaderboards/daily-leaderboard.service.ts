import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { Clock } from '../../common/clock';
import type { AuthContext } from '../../common/http/request-context';
import { APP_ENV, type AppEnv } from '../../config/env';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { redisKeys } from '../../infra/redis/keys';
import { funboxesAllowPb } from '../results/domain/funbox-rules';
import type { ResultSavedEvent } from '../results/result-hooks';
import { boardRead } from './board-availability';
import { BoardStoreRepository, type StoredRow } from './board-store.repository';
import type { DailyPageQuery, DailyRankQuery } from './dto/leaderboard-queries';
import { FriendsScope } from './friends-scope';
import {
  friendsPage,
  friendsRankOf,
  storedEntryIdentity,
  num,
  storedIdentity,
  type BoardPage,
  type FriendsRanked,
  type SpeedEntry,
} from './leaderboard-entries';
import {
  DAY_MS,
  dailyScore,
  isEligible,
  isLeaderboardMode,
  enabledBoards,
  isLeaderboardMode2,
  matchesModeRules,
  utcDayStart,
  wpmOfDailyScore,
  type BoardKey,
} from './leaderboard-rules';

export const NO_DAILY_BOARD = 'There is no daily leaderboard for this mode';

/** A qualifying result, as the post-commit hook or the board catch-up (from PostgreSQL) sees it. */
export interface DailyCandidate {
  uid: string;
  timestamp: number;
  board: BoardKey;
  wpm: number;
  rawWpm: number;
  acc: number;
  consistency: number;
  account: ResultSavedEvent['account'];
}

export interface DailyPage extends BoardPage<SpeedEntry> {
  /** wpm of the lowest entry kept on the board (0 when empty): what a result must beat to enter a full board. */
  minWpm: number;
}

/**
 * Daily boards (Redis, one per UTC day and mode enabled by `dailyLeaderboards.validModeRules`): one entry per user,
 * their best result of the day; only improvements are written; the board keeps `maxResults` entries and expires
 * `leaderboardExpirationTimeInDays` after its day began.
 */
@Injectable()
export class DailyLeaderboardService {
  constructor(
    private readonly store: BoardStoreRepository,
    private readonly friends: FriendsScope,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async page(auth: AuthContext, query: DailyPageQuery): Promise<DailyPage> {
    const config = await this.configuration.get();
    const keys = this.keysFor(config, query, query.daysBefore);
    const premium = config.users.premium.enabled;
    const friendUids = await this.friends.uids(auth, query.friendsOnly, config);
    if (friendUids) {
      const rows = await boardRead(() => this.store.members(keys, friendUids));
      const entries = rows.map((row) => toEntry(row, premium));
      const last = rows[rows.length - 1];
      return {
        ...friendsPage(entries, query),
        minWpm: last ? wpmOfDailyScore(last.score) : 0,
        pageSize: query.pageSize,
      };
    }
    const first = query.page * query.pageSize;
    const page = await boardRead(() => this.store.page(keys, first, first + query.pageSize - 1));
    return {
      entries: page.rows.map((row) => toEntry(row, premium)),
      count: page.count,
      minWpm: page.lowestScore === null ? 0 : wpmOfDailyScore(page.lowestScore),
      pageSize: query.pageSize,
    };
  }

  async rank(
    auth: AuthContext,
    query: DailyRankQuery,
  ): Promise<SpeedEntry | FriendsRanked<SpeedEntry> | null> {
    const config = await this.configuration.get();
    const keys = this.keysFor(config, query, query.daysBefore);
    const friendUids = await this.friends.uids(auth, query.friendsOnly, config);
    const rows = await boardRead(() => this.store.members(keys, friendUids ?? [auth.uid]));
    const entries = rows.map((row) => toEntry(row, config.users.premium.enabled));
    if (friendUids) return friendsRankOf(entries, auth.uid);
    return entries[0] ?? null;
  }

  /** Post-commit step of `POST /results`: the 1-based rank when the result entered or improved today's board. */
  async record(event: ResultSavedEvent, config: ServerConfiguration): Promise<number | undefined> {
    const daily = config.dailyLeaderboards;
    const { result, account } = event;
    const board = { language: result.language, mode: result.mode, mode2: result.mode2 };
    if (!daily.enabled || !this.exists(config, board)) return undefined;
    const minTime = this.env.mode === 'dev' ? null : config.leaderboards.minTimeTyping;
    if (!isEligible({ ...account, timeTyping: account.timeTypingBefore }, minTime)) return undefined;
    // Contract facts §13.3: results that cannot be personal bests do not enter daily boards either.
    if (!funboxesAllowPb(result.funbox) || result.bailedOut) return undefined;
    if (result.stopOnLetter && result.acc < 100) return undefined;
    return this.enter(
      {
        uid: event.uid,
        timestamp: event.timestamp,
        board,
        wpm: result.wpm,
        rawWpm: result.rawWpm,
        acc: result.acc,
        consistency: result.consistency,
        account,
      },
      config,
    );
  }

  /**
   * Writes a result that qualifies (every rule of `record` checked) to its day's board: only an improvement changes the
   * user's entry, so writing the same result again, or an older worse one, changes nothing (board catch-up relies on
   * it). The 1-based rank when it entered or improved, else undefined.
   */
  async enter(candidate: DailyCandidate, config: ServerConfiguration): Promise<number | undefined> {
    const daily = config.dailyLeaderboards;
    const { board, account } = candidate;
    const day = utcDayStart(candidate.timestamp);
    const ttlMs = day + daily.leaderboardExpirationTimeInDays * DAY_MS - this.clock.now();
    if (ttlMs <= 0) return undefined;
    const entry = {
      uid: candidate.uid,
      name: account.name,
      wpm: candidate.wpm,
      raw: candidate.rawWpm,
      acc: candidate.acc,
      consistency: candidate.consistency,
      timestamp: candidate.timestamp,
      ...storedIdentity(account, config.users.premium.enabled, candidate.timestamp),
    };
    const rank = await this.store.addDaily(
      redisKeys.dailyLeaderboard(day, board.language, board.mode, board.mode2),
      candidate.uid,
      dailyScore(candidate.wpm, candidate.acc, candidate.timestamp),
      entry,
      daily.maxResults,
      ttlMs,
    );
    return rank >= 0 ? rank + 1 : undefined;
  }

  /** Whether results of `board` enter daily boards under this configuration. */
  hasBoard(config: ServerConfiguration, board: BoardKey): boolean {
    return config.dailyLeaderboards.enabled && this.exists(config, board);
  }

  /** The best `count` entries of a day's board (reward mails), best first. */
  async top(day: number, board: BoardKey, count: number): Promise<SpeedEntry[]> {
    if (count <= 0) return [];
    const page = await this.store.page(
      redisKeys.dailyLeaderboard(day, board.language, board.mode, board.mode2),
      0,
      count - 1,
    );
    return page.rows.map((row) => toEntry(row, false));
  }

  /** Every board a daily entry of any user may still be on. */
  boardsToPurge(config: ServerConfiguration): { day: number; board: BoardKey }[] {
    const today = utcDayStart(this.clock.now());
    const days = Math.ceil(config.dailyLeaderboards.leaderboardExpirationTimeInDays) + 1;
    const boards = enabledBoards(config.dailyLeaderboards.validModeRules);
    return Array.from({ length: days }, (_, i) => today - i * DAY_MS).flatMap((day) =>
      boards.map((board) => ({ day, board })),
    );
  }

  /** Removes the user from every daily board still kept (opt-out, ban, reset, deletion). */
  async purge(uid: string): Promise<void> {
    const config = await this.configuration.get();
    await this.store.remove(
      this.boardsToPurge(config).map(({ day, board }) =>
        redisKeys.dailyLeaderboard(day, board.language, board.mode, board.mode2),
      ),
      uid,
    );
  }

  private exists(config: ServerConfiguration, board: BoardKey): boolean {
    return (
      isLeaderboardMode(board.mode) &&
      isLeaderboardMode2(board.mode, board.mode2) &&
      matchesModeRules(config.dailyLeaderboards.validModeRules, board)
    );
  }

  private keysFor(config: ServerConfiguration, board: BoardKey, daysBefore: number) {
    if (!this.exists(config, board)) throw new AppError(404, NO_DAILY_BOARD);
    const day = utcDayStart(this.clock.now()) - daysBefore * DAY_MS;
    return redisKeys.dailyLeaderboard(day, board.language, board.mode, board.mode2);
  }
}

function toEntry(row: StoredRow, premiumEnabled: boolean): SpeedEntry {
  const e = row.entry;
  return Object.assign(storedEntryIdentity(row.uid, e, premiumEnabled), {
    wpm: num(e, 'wpm'),
    acc: num(e, 'acc'),
    raw: num(e, 'raw'),
    consistency: num(e, 'consistency'),
    timestamp: num(e, 'timestamp'),
    rank: row.index + 1,
  });
}
