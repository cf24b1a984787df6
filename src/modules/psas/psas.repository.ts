import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { NewPsa, Psa } from './psa.types';

@Injectable()
export class PsasRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Oldest first, so announcements keep the order operators gave them. */
  async list(): Promise<Psa[]> {
    const rows = await this.db
      .selectFrom('psas')
      .select(['id', 'message', 'date', 'level', 'sticky'])
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    // Absent facts stay absent in JSON, as in the original's documents.
    return rows.map((r) =>
      Object.assign(
        { _id: r.id, message: r.message },
        r.date === null ? {} : { date: r.date },
        r.level === null ? {} : { level: r.level },
        r.sticky === null ? {} : { sticky: r.sticky },
      ),
    );
  }

  async insert(id: string, psa: NewPsa, now: number): Promise<void> {
    await this.db
      .insertInto('psas')
      .values({
        id,
        message: psa.message,
        date: psa.date ?? null,
        level: psa.level ?? null,
        sticky: psa.sticky ?? null,
        created_at: now,
      })
      .execute();
  }

  /** Returns false when the release already has its announcement (a redelivered webhook). */
  async insertForRelease(id: string, releaseId: string, psa: NewPsa, now: number): Promise<boolean> {
    const result = await this.db
      .insertInto('psas')
      .values({
        id,
        message: psa.message,
        date: psa.date ?? null,
        level: psa.level ?? null,
        sticky: psa.sticky ?? null,
        release_id: releaseId,
        created_at: now,
      })
      .onConflict((oc) => oc.column('release_id').doNothing())
      .executeTakeFirst();
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('psas').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
