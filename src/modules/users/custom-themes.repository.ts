import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import type { ThemeColors } from './theme-colors';

/** `colors` is stored as given (object or array) and so answered in that shape. */
export interface CustomTheme {
  _id: string;
  name: string;
  colors: ThemeColors;
}

@Injectable()
export class CustomThemesRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async list(uid: string): Promise<CustomTheme[]> {
    const rows = await this.db
      .selectFrom('custom_themes')
      .select(['id', 'name', 'colors'])
      .where('uid', '=', uid)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ _id: r.id, name: r.name, colors: r.colors as ThemeColors }));
  }

  async count(uid: string, trx: Executor): Promise<number> {
    const row = await trx
      .selectFrom('custom_themes')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(uid: string, theme: CustomTheme, now: number, trx: Executor): Promise<void> {
    await trx
      .insertInto('custom_themes')
      .values({ id: theme._id, uid, name: theme.name, colors: JSON.stringify(theme.colors), created_at: now })
      .execute();
  }

  async update(uid: string, id: string, name: string, colors: ThemeColors): Promise<boolean> {
    const result = await this.db
      .updateTable('custom_themes')
      .set({ name, colors: JSON.stringify(colors) })
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async delete(uid: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('custom_themes')
      .where('uid', '=', uid)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async deleteAllOf(uid: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('custom_themes').where('uid', '=', uid).execute();
  }
}
