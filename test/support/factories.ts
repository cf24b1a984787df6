import { randomUUID } from 'node:crypto';
import type { Database } from '../../src/infra/database/database';
import type { Permission } from '../../src/common/auth/policy.decorators';

let counter = 0;

export interface UserRow {
  uid: string;
  name: string;
  email: string;
}

export interface UserOverrides {
  uid?: string;
  name?: string;
  email?: string;
  addedAt?: number;
  banned?: boolean;
  lbOptOut?: boolean;
  premiumExpiresAt?: number | null;
  timeTyping?: number;
  xp?: number;
  /** Granted permissions (user_permissions rows). */
  permissions?: Extract<Permission, 'admin' | 'quoteMod'>[];
  /** The revocable flags (default on, as for a new account). */
  canReport?: boolean;
  canManageApeKeys?: boolean;
}

/** Inserts a user row directly (a signed-up account), with unique uid and name unless given. */
export async function createUser(db: Database, overrides: UserOverrides = {}): Promise<UserRow> {
  counter += 1;
  const uid = overrides.uid ?? `uid${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const name = overrides.name ?? `user_${process.pid % 1000}_${counter}`;
  const email = overrides.email ?? `${name}@example.test`;
  await db
    .insertInto('users')
    .values({
      uid,
      name,
      email,
      added_at: overrides.addedAt ?? Date.now(),
      banned: overrides.banned ?? false,
      lb_opt_out: overrides.lbOptOut ?? false,
      premium_expires_at: overrides.premiumExpiresAt ?? null,
      time_typing: overrides.timeTyping ?? 0,
      xp: overrides.xp ?? 0,
      can_report: overrides.canReport ?? true,
      can_manage_ape_keys: overrides.canManageApeKeys ?? true,
    })
    .execute();
  for (const permission of overrides.permissions ?? []) {
    await db.insertInto('user_permissions').values({ uid, permission, granted_at: Date.now() }).execute();
  }
  return { uid, name, email };
}
