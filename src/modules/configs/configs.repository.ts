import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import type { UserConfig } from './config-schema';

@Injectable()
export class ConfigsRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** The stored partial configuration, or null when the user never saved one. */
  async find(uid: string): Promise<UserConfig | null> {
    const row = await this.db
      .selectFrom('user_configs')
      .select('config')
      .where('uid', '=', uid)
      .executeTakeFirst();
    return row ? (row.config as UserConfig) : null;
  }

  /** Writes the given keys over the stored ones in one statement (top-level jsonb merge), creating the row. */
  async merge(uid: string, patch: UserConfig, now: number): Promise<void> {
    const json = JSON.stringify(patch);
    await this.db
      .insertInto('user_configs')
      .values({ uid, config: json, updated_at: now })
      .onConflict((oc) =>
        oc.column('uid').doUpdateSet({
          config: sql`user_configs.config || ${json}::jsonb`,
          updated_at: now,
        }),
      )
      .execute();
  }

  async deleteOf(uid: string, executor: Executor = this.db): Promise<void> {
    await executor.deleteFrom('user_configs').where('uid', '=', uid).execute();
  }
}
