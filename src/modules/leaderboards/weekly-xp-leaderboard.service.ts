import { Inject, Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import type { AuthContext } from '../../common/http/request-context';
import { APP_ENV, type AppEnv } from '../../config/env';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { redisKeys } from '../../infra/redis/keys';
import type { ResultSavedEvent } from '../results/result-hooks';
import { boardRead } from './board-availability';
import { BoardStoreRepository, type StoredRow } from './board-store.repository';
import type { WeeklyPageQuery, WeeklyRankQuery } from './dto/leaderboard-queries';
import { FriendsScope } from './friends-scope';
import {
  friendsPage,
  friendsRankOf,
  storedEntryIdentity,
  num,
  storedIdentity,
  type BoardPage,
  type FriendsRanked,
  type XpEntry,
} from './leaderboard-entries';
import { DAY_MS, isEligible, isoWeekStart } from './leaderboard-rules';

export const WEEK_MS = 7 * DAY_MS;

/** A user's XP of one week, summed from their stored results (board catch-up). */
export interface WeeklyTotal {
  uid: string;
  weekStart: number;
  xp: number;
  seconds: number;
  lastTimestamp: number;
  lastResultId: string;
  account: ResultSavedEvent['account'];
}

/**
 * The weekly XP board (Redis, one per ISO week starting Monday 00:00 UTC): XP earned by eligible users this week
 * (spec XP rule 8), with the time they typed; kept `leaderboards.weeklyXp.expirationTimeInDays` after the week began.
 */
@Injectable()
export class WeeklyXpLeaderboardService {
  constructor(
    private readonly store: BoardStoreRepository,
    private readonly friends: FriendsScope,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async page(auth: AuthContext, query: WeeklyPageQuery): Promise<BoardPage<XpEntry>> {
    const config = await this.configuration.get();
    const keys = this.keysFor(query.weeksBefore);
    const premium = config.users.premium.enabled;
    const friendUids = await this.friends.uids(auth, query.friendsOnly, config);
    if (friendUids) {
      const rows = await boardRead(() => this.store.members(keys, friendUids));
      return {
        ...friendsPage(
          rows.map((row) => toEntry(row, premium)),
          query,
        ),
        pageSize: query.pageSize,
      };
    }
    const first = query.page * query.pageSize;
    const page = await boardRead(() => this.store.page(keys, first, first + query.pageSize - 1));
    return {
      entries: page.rows.map((row) => toEntry(row, premium)),
      count: page.count,
      pageSize: query.pageSize,
    };
  }

  async rank(auth: AuthContext, query: WeeklyRankQuery): Promise<XpEntry | FriendsRanked<XpEntry> | null> {
    const config = await this.configuration.get();
    const friendUids = await this.friends.uids(auth, query.friendsOnly, config);
    const keys = this.keysFor(query.weeksBefore);
    const rows = await boardRead(() => this.store.members(keys, friendUids ?? [auth.uid]));
    const entries = rows.map((row) => toEntry(row, config.users.premium.enabled));
    if (friendUids) return friendsRankOf(entries, auth.uid);
    return entries[0] ?? null;
  }

  /** Post-commit step of `POST /results`: adds the XP of an eligible user's result; the 1-based rank after it. */
  async record(event: ResultSavedEvent, config: ServerConfiguration): Promise<number | undefined> {
    const weekly = config.leaderboards.weeklyXp;
    const { account, result } = event;
    if (!weekly.enabled || event.xp <= 0) return undefined;
    const minTime = this.env.mode === 'dev' ? null : config.leaderboards.minTimeTyping;
    if (!isEligible({ ...account, timeTyping: account.timeTypingBefore }, minTime)) return undefined;

    const week = isoWeekStart(event.timestamp);
    const ttlMs = week + weekly.expirationTimeInDays * DAY_MS - this.clock.now();
    if (ttlMs <= 0) return undefined;
    const rank = await this.store.addWeeklyXp(
      redisKeys.weeklyXpLeaderboard(week),
      event.uid,
      event.xp,
      result.testDuration + result.incompleteTestSeconds - result.afkDuration,
      event.resultId,
      {
        uid: event.uid,
        name: account.name,
        lastActivityTimestamp: event.timestamp,
        ...storedIdentity(account, config.users.premium.enabled, event.timestamp),
      },
      ttlMs,
    );
    return rank + 1;
  }

  /**
   * Board catch-up: sets an eligible user's total of the week as counted from PostgreSQL (idempotent; replaces what
   * the hooks added). False when a newer live write made the user wait for the next pass; undefined when the week is
   * no longer kept.
   */
  async restore(total: WeeklyTotal, config: ServerConfiguration): Promise<boolean | undefined> {
    const weekly = config.leaderboards.weeklyXp;
    const ttlMs = total.weekStart + weekly.expirationTimeInDays * DAY_MS - this.clock.now();
    if (!weekly.enabled || ttlMs <= 0) return undefined;
    return this.store.setWeeklyXp(
      redisKeys.weeklyXpLeaderboard(total.weekStart),
      total.uid,
      total.xp,
      {
        uid: total.uid,
        name: total.account.name,
        lastActivityTimestamp: total.lastTimestamp,
        timeTypedSeconds: total.seconds,
        lastResultId: total.lastResultId,
        ...storedIdentity(total.account, config.users.premium.enabled, total.lastTimestamp),
      },
      ttlMs,
    );
  }

  /** The best `count` entries of the week starting at `weekStart` (reward mails), best first. */
  async top(weekStart: number, count: number): Promise<XpEntry[]> {
    if (count <= 0) return [];
    const page = await this.store.page(redisKeys.weeklyXpLeaderboard(weekStart), 0, count - 1);
    return page.rows.map((row) => toEntry(row, false));
  }

  /** Removes the user from every weekly board still kept (opt-out, ban, reset, deletion). */
  async purge(uid: string): Promise<void> {
    const config = await this.configuration.get();
    const thisWeek = isoWeekStart(this.clock.now());
    const weeks = Math.ceil(config.leaderboards.weeklyXp.expirationTimeInDays / 7) + 1;
    await this.store.remove(
      Array.from({ length: weeks }, (_, i) => redisKeys.weeklyXpLeaderboard(thisWeek - i * WEEK_MS)),
      uid,
    );
  }

  private keysFor(weeksBefore: number) {
    return redisKeys.weeklyXpLeaderboard(isoWeekStart(this.clock.now()) - weeksBefore * WEEK_MS);
  }
}

function toEntry(row: StoredRow, premiumEnabled: boolean): XpEntry {
  const e = row.entry;
  return Object.assign(storedEntryIdentity(row.uid, e, premiumEnabled), {
    rank: row.index + 1,
    totalXp: row.score,
    timeTypedSeconds: num(e, 'timeTypedSeconds'),
    lastActivityTimestamp: num(e, 'lastActivityTimestamp'),
  });
}
