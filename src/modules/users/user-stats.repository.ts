import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import { PERSONAL_BEST_COLUMNS, type PersonalBestRow } from './personal-bests';
import type { DayCount } from './test-activity';

/** Reads of what result submission writes per user: personal bests and daily test activity. */
@Injectable()
export class UserStatsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async personalBests(uid: string, mode?: string, mode2?: string): Promise<PersonalBestRow[]> {
    let query = this.db.selectFrom('personal_bests').select(PERSONAL_BEST_COLUMNS).where('uid', '=', uid);
    if (mode !== undefined) query = query.where('mode', '=', mode);
    if (mode2 !== undefined) query = query.where('mode2', '=', mode2);
    return query
      .orderBy('mode')
      .orderBy('mode2')
      .orderBy('language')
      .orderBy('difficulty')
      .orderBy('punctuation')
      .orderBy('numbers')
      .orderBy('lazy_mode')
      .execute();
  }

  async testActivity(uid: string, fromDay?: number): Promise<DayCount[]> {
    let query = this.db.selectFrom('test_activity').select(['day', 'tests']).where('uid', '=', uid);
    if (fromDay !== undefined) query = query.where('day', '>=', fromDay);
    return query.orderBy('day').execute();
  }

  async deletePersonalBests(uid: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('personal_bests').where('uid', '=', uid).execute();
  }

  /** Account reset: personal bests and activity go (tag personal bests go with the tags). */
  async deleteAllOf(uid: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('personal_bests').where('uid', '=', uid).execute();
    await trx.deleteFrom('test_activity').where('uid', '=', uid).execute();
  }
}
