import { Inject, Injectable } from '@nestjs/common';
import type { Selectable, SelectQueryBuilder } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { DB, Results } from '../../infra/database/database.types';
import type { Executor } from '../../infra/database/transaction';
import type { KeyStats } from './domain/key-stats';
import type { ResultRecord } from './domain/result-view';
import { LIST_COLUMNS, RESULT_COLUMNS } from './result-columns';

export interface ResultPage {
  limit: number;
  offset: number;
  onOrAfterTimestamp?: number;
}

type ListRow = Pick<Selectable<Results>, (typeof LIST_COLUMNS)[number]>;

function toRecord(row: ListRow): ResultRecord {
  return {
    id: row.id,
    uid: row.uid,
    timestamp: row.timestamp,
    wpm: row.wpm,
    rawWpm: row.raw_wpm,
    acc: row.acc,
    consistency: row.consistency,
    keyConsistency: row.key_consistency,
    charStats: row.char_stats,
    mode: row.mode,
    mode2: row.mode2,
    quoteLength: row.quote_length,
    language: row.language,
    difficulty: row.difficulty,
    punctuation: row.punctuation,
    numbers: row.numbers,
    lazyMode: row.lazy_mode,
    blindMode: row.blind_mode,
    bailedOut: row.bailed_out,
    funbox: row.funbox,
    tags: row.tags,
    testDuration: row.test_duration,
    afkDuration: row.afk_duration,
    incompleteTestSeconds: row.incomplete_test_seconds,
    restartCount: row.restart_count,
    isPb: row.is_pb,
  };
}

@Injectable()
export class ResultsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  private ofUser(uid: string): SelectQueryBuilder<DB, 'results', object> {
    return this.db.selectFrom('results').where('uid', '=', uid);
  }

  /** Newest first; served by the (uid, timestamp DESC, id DESC) index. */
  async list(uid: string, page: ResultPage): Promise<ResultRecord[]> {
    let query = this.ofUser(uid).select(LIST_COLUMNS);
    if (page.onOrAfterTimestamp !== undefined)
      query = query.where('timestamp', '>=', page.onOrAfterTimestamp);
    const rows = await query
      .orderBy('timestamp', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(toRecord);
  }

  async findOne(uid: string, resultId: string): Promise<ResultRecord | undefined> {
    return this.full(
      await this.ofUser(uid).select(RESULT_COLUMNS).where('id', '=', resultId).executeTakeFirst(),
    );
  }

  /** The newest result (same order and index as the list). */
  async findLast(uid: string): Promise<ResultRecord | undefined> {
    return this.full(
      await this.ofUser(uid)
        .select(RESULT_COLUMNS)
        .orderBy('timestamp', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    );
  }

  private full(row: Pick<Selectable<Results>, (typeof RESULT_COLUMNS)[number]> | undefined) {
    if (!row) return undefined;
    return {
      ...toRecord(row),
      name: row.name,
      chartData: row.chart_data,
      keySpacingStats: row.key_spacing_stats as KeyStats | null,
      keyDurationStats: row.key_duration_stats as KeyStats | null,
    };
  }

  /**
   * Deletes every result of the user. The user row keeps its last-result time: it is the time of the user's last
   * result (spec XP rule 5), which friends lists show as last activity, and the spacing check keeps applying.
   */
  async deleteAll(uid: string, executor: Executor = this.db): Promise<number> {
    const deleted = await executor.deleteFrom('results').where('uid', '=', uid).executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }
}
