import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Permission } from '../../common/auth/policy.decorators';

@Injectable()
export class AdminRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async userExists(uid: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('users').select('uid').where('uid', '=', uid).executeTakeFirst()) !==
      undefined
    );
  }

  async grantPermission(uid: string, permission: Permission, now: number): Promise<void> {
    await this.db
      .insertInto('user_permissions')
      .values({ uid, permission, granted_at: now })
      .onConflict((oc) => oc.columns(['uid', 'permission']).doNothing())
      .execute();
  }

  async revokePermission(uid: string, permission: Permission): Promise<boolean> {
    const result = await this.db
      .deleteFrom('user_permissions')
      .where('uid', '=', uid)
      .where('permission', '=', permission)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async setBanned(uid: string, banned: boolean): Promise<void> {
    await this.db.updateTable('users').set({ banned }).where('uid', '=', uid).execute();
  }

  async setPremium(uid: string, expiresAt: number | null, now: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set(
        expiresAt === null
          ? { premium_expires_at: null, premium_start_at: null }
          : { premium_expires_at: expiresAt, premium_start_at: now },
      )
      .where('uid', '=', uid)
      .execute();
  }

  /** Flips the ban and returns the new state, or null when there is no such user (one statement: no lost toggle). */
  async toggleBanned(uid: string): Promise<boolean | null> {
    const row = await this.db
      .updateTable('users')
      .set((eb) => ({ banned: eb.not('banned') }))
      .where('uid', '=', uid)
      .returning('banned')
      .executeTakeFirst();
    return row ? row.banned : null;
  }

  /** Returns false when there is no such user. */
  async clearStreakHourOffset(uid: string): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ streak_hour_offset: null })
      .where('uid', '=', uid)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
