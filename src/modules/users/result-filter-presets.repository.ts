import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';

/** A saved ResultFilters document (contract facts §12.9) with our id. */
export type ResultFilterPreset = Record<string, unknown> & { _id: string; name: string };

@Injectable()
export class ResultFilterPresetsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async list(uid: string): Promise<ResultFilterPreset[]> {
    const rows = await this.db
      .selectFrom('result_filter_presets')
      .select(['id', 'name', 'filters'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => Object.assign({ _id: r.id, name: r.name }, r.filters as Record<string, unknown>));
  }

  async count(uid: string, trx: Executor): Promise<number> {
    const row = await trx
      .selectFrom('result_filter_presets')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** `filters` holds every group of the document; `_id` and `name` live in their columns. */
  async insert(
    uid: string,
    preset: { id: string; name: string; filters: Record<string, unknown> },
    now: number,
    trx: Executor,
  ): Promise<void> {
    await trx
      .insertInto('result_filter_presets')
      .values({
        id: preset.id,
        uid,
        name: preset.name,
        filters: JSON.stringify(preset.filters),
        created_at: now,
      })
      .execute();
  }

  async delete(uid: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('result_filter_presets')
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
