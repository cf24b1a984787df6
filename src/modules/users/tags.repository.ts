import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import { PERSONAL_BEST_COLUMNS, type PersonalBestRow } from './personal-bests';

export interface TagRow {
  id: string;
  name: string;
}

/** Tags are always read and changed through their owner's uid: someone else's tag id is simply not found. */
@Injectable()
export class TagsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async list(uid: string): Promise<TagRow[]> {
    return this.db
      .selectFrom('tags')
      .select(['id', 'name'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  async personalBests(uid: string): Promise<(PersonalBestRow & { tag_id: string })[]> {
    return this.db
      .selectFrom('tag_personal_bests')
      .select(['tag_id', ...PERSONAL_BEST_COLUMNS])
      .where('uid', '=', uid)
      .orderBy('tag_id')
      .orderBy('mode')
      .orderBy('mode2')
      .orderBy('language')
      .execute();
  }

  async count(uid: string, trx: Executor): Promise<number> {
    const row = await trx
      .selectFrom('tags')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(uid: string, tag: TagRow, now: number, trx: Executor): Promise<void> {
    await trx.insertInto('tags').values({ id: tag.id, uid, name: tag.name, created_at: now }).execute();
  }

  async rename(uid: string, id: string, name: string): Promise<boolean> {
    const result = await this.db
      .updateTable('tags')
      .set({ name })
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Its personal bests cascade. */
  async delete(uid: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('tags')
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async exists(uid: string, id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('tags')
      .select('id')
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }

  async clearPersonalBests(uid: string, id: string): Promise<void> {
    await this.db.deleteFrom('tag_personal_bests').where('uid', '=', uid).where('tag_id', '=', id).execute();
  }

  async deleteAllOf(uid: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('tags').where('uid', '=', uid).execute();
  }
}
