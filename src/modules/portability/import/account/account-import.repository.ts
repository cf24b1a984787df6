import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../../../infra/database/database';

export interface AccountHere {
  uid: string;
  name: string;
  added_at: number;
}

/** The reads an account import makes before it writes anything: who holds the uid, the name, the address. */
@Injectable()
export class AccountImportRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  byUid(uid: string): Promise<AccountHere | undefined> {
    return this.db
      .selectFrom('users')
      .select(['uid', 'name', 'added_at'])
      .where('uid', '=', uid)
      .executeTakeFirst();
  }

  /** The account holding `name` here, case-insensitively (as the unique index compares names). */
  byName(name: string): Promise<AccountHere | undefined> {
    return this.db
      .selectFrom('users')
      .select(['uid', 'name', 'added_at'])
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst();
  }

  /** An account using `email` here, case-insensitively (users_email_lower_idx). */
  byEmail(email: string): Promise<AccountHere | undefined> {
    return this.db
      .selectFrom('users')
      .select(['uid', 'name', 'added_at'])
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  /** Which of `uids` have an account here. */
  async present(uids: readonly string[]): Promise<Set<string>> {
    if (uids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('users')
      .select('uid')
      .where('uid', 'in', [...uids])
      .execute();
    return new Set(rows.map((r) => r.uid));
  }

  /** The account's results here (the check after an import). */
  async countResults(uid: string): Promise<number> {
    const row = await this.db
      .selectFrom('results')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
