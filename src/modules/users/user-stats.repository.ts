import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import { PreparedQuery } from '../../infra/database/prepared-query';
import type { Executor } from '../../infra/database/transaction';
import { PERSONAL_BEST_COLUMNS, type PersonalBestRow } from './personal-bests';
import type { DayCount } from './test-activity';

/** Reads of what result submission writes per user: personal bests and daily test activity. */
@Injectable()
export class UserStatsRepository {
  /** A user's bests and recent activity, as every profile reads them: built once, prepared. */
  private readonly allBests;
  private readonly activitySince;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.allBests = new PreparedQuery((p: { uid: string }) => this.bestsQuery(p.uid), ['uid']);
    this.activitySince = new PreparedQuery(
      (p: { uid: string; fromDay: number }) => this.activityQuery(p.uid).where('day', '>=', p.fromDay),
      ['uid', 'fromDay'],
    );
  }

  private bestsQuery(uid: string) {
    return this.db
      .selectFrom('personal_bests')
      .select(PERSONAL_BEST_COLUMNS)
      .where('uid', '=', uid)
      .orderBy('mode')
      .orderBy('mode2')
      .orderBy('language')
      .orderBy('difficulty')
      .orderBy('punctuation')
      .orderBy('numbers')
      .orderBy('lazy_mode');
  }

  private activityQuery(uid: string) {
    return this.db.selectFrom('test_activity').select(['day', 'tests']).where('uid', '=', uid).orderBy('day');
  }

  async personalBests(uid: string, mode?: string, mode2?: string): Promise<PersonalBestRow[]> {
    if (mode === undefined && mode2 === undefined) {
      return (await this.db.executeQuery(this.allBests.with({ uid }))).rows;
    }
    let query = this.bestsQuery(uid);
    if (mode !== undefined) query = query.where('mode', '=', mode);
    if (mode2 !== undefined) query = query.where('mode2', '=', mode2);
    return query.execute();
  }

  async testActivity(uid: string, fromDay?: number): Promise<DayCount[]> {
    if (fromDay === undefined) return this.activityQuery(uid).execute();
    return (await this.db.executeQuery(this.activitySince.with({ uid, fromDay }))).rows;
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
