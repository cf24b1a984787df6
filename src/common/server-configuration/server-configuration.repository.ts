import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';

@Injectable()
export class ServerConfigurationRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async load(): Promise<unknown> {
    const row = await this.db
      .selectFrom('server_configuration')
      .select('document')
      .where('id', '=', 1)
      .executeTakeFirst();
    return row?.document ?? null;
  }

  /**
   * Read-modify-write under a row lock, so two concurrent PATCHes (on any replicas) both land.
   * `apply` gets the stored document (or null) and returns the new one.
   */
  async update(apply: (stored: unknown) => unknown, now: number): Promise<unknown> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('server_configuration')
        .values({ id: 1, document: sql`'{}'::jsonb`, updated_at: now })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      const row = await trx
        .selectFrom('server_configuration')
        .select('document')
        .where('id', '=', 1)
        .forUpdate()
        .executeTakeFirstOrThrow();
      const next = apply(row.document);
      await trx
        .updateTable('server_configuration')
        .set({ document: JSON.stringify(next), updated_at: now })
        .where('id', '=', 1)
        .execute();
      return next;
    });
  }
}
