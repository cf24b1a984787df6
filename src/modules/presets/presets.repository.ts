import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { advisoryLockKey } from '../../infra/database/advisory-lock';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import type { UserConfig } from '../configs/config-schema';

export interface PresetRow {
  id: string;
  name: string;
  config: UserConfig;
  settingGroups: string[] | null;
}

export interface PresetChanges {
  name: string;
  config?: UserConfig;
  /** undefined: unchanged; null: cleared. */
  settingGroups?: string[] | null;
}

@Injectable()
export class PresetsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async list(uid: string): Promise<PresetRow[]> {
    const rows = await this.db
      .selectFrom('presets')
      .select(['id', 'name', 'config', 'setting_groups'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      config: r.config as UserConfig,
      settingGroups: r.setting_groups,
    }));
  }

  /**
   * Inserts a preset unless the user already has `max`. Counting and inserting under a per-user transaction lock
   * keeps concurrent creations from overshooting the cap. Returns false when the cap is reached.
   */
  async insertWithinCap(
    uid: string,
    preset: { id: string; name: string; config: UserConfig; settingGroups: string[] | null },
    max: number,
    now: number,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await sql`SELECT pg_advisory_xact_lock(${advisoryLockKey(`presets:${uid}`).toString()}::bigint)`.execute(
        trx,
      );
      const { count } = await trx
        .selectFrom('presets')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('uid', '=', uid)
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return false;
      await trx
        .insertInto('presets')
        .values({
          id: preset.id,
          uid,
          name: preset.name,
          config: JSON.stringify(preset.config),
          setting_groups: preset.settingGroups,
          created_at: now,
        })
        .execute();
      return true;
    });
  }

  /** Returns false when the user has no preset with this id. */
  async update(uid: string, id: string, changes: PresetChanges): Promise<boolean> {
    const result = await this.db
      .updateTable('presets')
      .set({
        name: changes.name,
        ...(changes.config === undefined ? {} : { config: JSON.stringify(changes.config) }),
        ...(changes.settingGroups === undefined ? {} : { setting_groups: changes.settingGroups }),
      })
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Returns false when the user has no preset with this id. */
  async delete(uid: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('presets')
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteAllOf(uid: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('presets').where('uid', '=', uid).execute();
  }
}
