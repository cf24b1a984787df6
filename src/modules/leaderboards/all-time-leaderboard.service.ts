import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import type { AuthContext } from '../../common/http/request-context';
import { hasPremium } from '../../common/premium';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { AllTimeRepository, type SnapshotRow } from './all-time.repository';
import type { BoardQuery, LeaderboardPageQuery } from './dto/leaderboard-queries';
import { FriendsScope } from './friends-scope';
import {
  friendsPage,
  friendsRankOf,
  numberOrAbsent,
  premiumOrAbsent,
  textOrAbsent,
  type BoardPage,
  type FriendsRanked,
  type SpeedEntry,
} from './leaderboard-entries';
import type { BoardKey } from './leaderboard-rules';
import type { Int } from '../../common/int';

/** Ranks are int4; a page past this cannot hold entries (and must not reach the database as an out-of-range value). */
const MAX_RANK = 2_147_483_647;

export interface RankAndCount {
  rank: Int;
  count: Int;
}

/** Profile `allTimeLbs`: `time.15.english` / `time.60.english`, each absent when the user is not on that board. */
export interface ProfileLeaderboards {
  time: { '15': { english?: RankAndCount }; '60': { english?: RankAndCount } };
}

function boardOf(query: BoardQuery): BoardKey {
  return { language: query.language, mode: query.mode, mode2: query.mode2 };
}

/** `GET /leaderboards`, `GET /leaderboards/rank` and the profile ranks, all read from the snapshot. */
@Injectable()
export class AllTimeLeaderboardService {
  constructor(
    private readonly repository: AllTimeRepository,
    private readonly friends: FriendsScope,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  async page(auth: AuthContext, query: LeaderboardPageQuery): Promise<BoardPage<SpeedEntry>> {
    const config = await this.configuration.get();
    const board = boardOf(query);
    const toEntry = this.mapper(config.users.premium.enabled);
    const friendUids = await this.friends.uids(auth, query.friendsOnly, config);
    if (friendUids) {
      const rows = await this.repository.ofUsers(board, friendUids);
      return { ...friendsPage(rows.map(toEntry), query), pageSize: query.pageSize };
    }
    const first = query.page * query.pageSize;
    const { rows, count } =
      first >= MAX_RANK - query.pageSize
        ? { rows: [], count: await this.repository.count(board) }
        : await this.repository.page(board, first, query.pageSize);
    return { entries: rows.map(toEntry), count, pageSize: query.pageSize };
  }

  /** The caller's entry (on the friends board with `friendsOnly`), or null when they are not on the board. */
  async rank(auth: AuthContext, query: BoardQuery): Promise<SpeedEntry | FriendsRanked<SpeedEntry> | null> {
    const config = await this.configuration.get();
    const board = boardOf(query);
    const toEntry = this.mapper(config.users.premium.enabled);
    const friendUids = await this.friends.uids(auth, query.friendsOnly, config);
    const rows = await this.repository.ofUsers(board, friendUids ?? [auth.uid]);
    const entries = rows.map(toEntry);
    if (friendUids) return friendsRankOf(entries, auth.uid);
    return entries[0] ?? null;
  }

  async profileRanks(uid: string): Promise<ProfileLeaderboards> {
    const result: ProfileLeaderboards = { time: { '15': {}, '60': {} } };
    await Promise.all(
      (['15', '60'] as const).map(async (mode2) => {
        const board = { language: 'english', mode: 'time', mode2 };
        const [row] = await this.repository.ofUsers(board, [uid]);
        if (row) result.time[mode2].english = { rank: row.rank, count: row.board_size };
      }),
    );
    return result;
  }

  /**
   * A snapshot row as its entry, built as one object (the identity rules of `identity()`, without its source and
   * intermediate objects): the mapping of a 50-entry page allocated about 24 KB and was one of its largest costs.
   */
  private mapper(premiumEnabled: boolean): (row: SnapshotRow) => SpeedEntry {
    const now = this.clock.now();
    return (row) => ({
      uid: row.uid,
      name: row.name,
      badgeId: numberOrAbsent(row.badge_id),
      chatId: textOrAbsent(row.chat_id),
      chatAvatar: textOrAbsent(row.chat_avatar),
      isPremium: premiumOrAbsent(hasPremium(row.premium_expires_at, now), premiumEnabled),
      wpm: row.wpm,
      acc: row.acc,
      raw: row.raw,
      consistency: row.consistency,
      timestamp: row.timestamp,
      rank: row.rank,
    });
  }
}
