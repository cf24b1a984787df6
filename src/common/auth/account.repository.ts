import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import { PreparedQuery } from '../../infra/database/prepared-query';
import type { CallerAccount } from '../http/request-context';

/** The revocable flags join the granted permissions, so the guard checks every `@RequirePermission` the same way. */
function withFlags(granted: string[], canReport: boolean, canManageApeKeys: boolean): string[] {
  const permissions = [...granted];
  if (canReport) permissions.push('canReport');
  if (canManageApeKeys) permissions.push('canManageApeKeys');
  return permissions;
}

/** The auth guard's one read per signed-in request: does the user exist, and what may they do. */
@Injectable()
export class AccountRepository {
  // Built once: this runs on every signed-in request.
  private readonly caller;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.caller = new PreparedQuery(
      (p: { uid: string }) =>
        this.db
          .selectFrom('users')
          .select((eb) => [
            'users.uid',
            'users.name',
            'users.banned',
            'users.premium_expires_at',
            'users.can_report',
            'users.can_manage_ape_keys',
            eb
              .selectFrom('user_permissions')
              .select(sql<string[]>`coalesce(array_agg(permission), '{}')`.as('permissions'))
              .whereRef('user_permissions.uid', '=', 'users.uid')
              .as('permissions'),
          ])
          .where('users.uid', '=', p.uid),
      ['uid'],
    );
  }

  async findCaller(uid: string): Promise<CallerAccount | undefined> {
    const row = (await this.db.executeQuery(this.caller.with({ uid }))).rows[0];
    if (!row) return undefined;
    return {
      uid: row.uid,
      name: row.name,
      banned: row.banned,
      premiumExpiresAt: row.premium_expires_at,
      permissions: withFlags(row.permissions ?? [], row.can_report, row.can_manage_ape_keys),
    };
  }
}
