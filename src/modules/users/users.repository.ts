import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import { PreparedQuery } from '../../infra/database/prepared-query';
import type { Executor } from '../../infra/database/transaction';
import type { Int } from '../../common/int';

export interface Badge {
  id: Int;
  selected?: boolean;
}

export interface SocialProfiles {
  twitter?: string;
  github?: string;
  website?: string;
}

/** The user row as the users feature reads it (explicit columns; internal ones such as result hashes left out). */
export interface UserRecord {
  uid: string;
  name: string;
  email: string;
  addedAt: Int;
  banned: boolean;
  lbOptOut: boolean;
  lastNameChangeAt: Int | null;
  completedTests: Int;
  startedTests: Int;
  timeTyping: number;
  xp: Int;
  streakLength: Int;
  streakMaxLength: Int;
  streakLastResultAt: Int | null;
  streakHourOffset: number | null;
  chatId: string | null;
  chatAvatar: string | null;
  bio: string | null;
  keyboard: string | null;
  socialProfiles: SocialProfiles;
  showActivity: boolean;
  badges: Badge[];
  favoriteQuotes: Record<string, string[]>;
  premiumStartAt: Int | null;
  premiumExpiresAt: Int | null;
  /** `{ <mode>: { <mode2>: { <language>: rank } } }` (contract facts U7). */
  lbMemory: Record<string, Record<string, Record<string, Int>>>;
}

export interface NewUser {
  uid: string;
  name: string;
  email: string;
  addedAt: Int;
}

export interface ProfileChanges {
  bio?: string;
  keyboard?: string;
  socialProfiles?: SocialProfiles;
  showActivity?: boolean;
  badges?: Badge[];
}

/** PostgreSQL's unique_violation, with the index that refused the row. */
export function uniqueViolation(e: unknown): string | null {
  if (typeof e !== 'object' || e === null) return null;
  const { code, constraint } = e as { code?: unknown; constraint?: unknown };
  return code === '23505' ? String(constraint ?? '') : null;
}
export const NAME_INDEX = 'users_name_lower_key';
export const CHAT_ID_INDEX = 'users_chat_id_key';

@Injectable()
export class UsersRepository {
  /** The account reads by uid and by name (every profile, every signed-in page's account), built once, prepared. */
  private readonly byUid;
  private readonly byName;

  constructor(@Inject(DATABASE) private readonly db: Database) {
    this.byUid = new PreparedQuery(
      (p: { uid: string }) => this.selectUser(this.db).where('uid', '=', p.uid),
      ['uid'],
    );
    this.byName = new PreparedQuery(
      (p: { name: string }) => this.selectUser(this.db).where(sql`lower(name)`, '=', p.name),
      ['name'],
    );
  }

  inTransaction<T>(work: (trx: Executor) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  private selectUser(executor: Executor) {
    return executor
      .selectFrom('users')
      .select([
        'uid',
        'name',
        'email',
        'added_at as addedAt',
        'banned',
        'lb_opt_out as lbOptOut',
        'last_name_change_at as lastNameChangeAt',
        'completed_tests as completedTests',
        'started_tests as startedTests',
        'time_typing as timeTyping',
        'xp',
        'streak_length as streakLength',
        'streak_max_length as streakMaxLength',
        'streak_last_result_at as streakLastResultAt',
        'streak_hour_offset as streakHourOffset',
        'chat_id as chatId',
        'chat_avatar as chatAvatar',
        'profile_bio as bio',
        'profile_keyboard as keyboard',
        'profile_social_profiles as socialProfiles',
        'profile_show_activity as showActivity',
        'inventory_badges as badges',
        'favorite_quotes as favoriteQuotes',
        'premium_start_at as premiumStartAt',
        'premium_expires_at as premiumExpiresAt',
        'lb_memory as lbMemory',
      ]);
  }

  async findByUid(uid: string, executor: Executor = this.db): Promise<UserRecord | undefined> {
    const [row] = (await executor.executeQuery(this.byUid.with({ uid }))).rows;
    return row as UserRecord | undefined;
  }

  /** Case-insensitive, like the unique index. */
  async findByName(name: string): Promise<UserRecord | undefined> {
    const [row] = (await this.db.executeQuery(this.byName.with({ name: name.toLowerCase() }))).rows;
    return row as UserRecord | undefined;
  }

  /**
   * The account with this address, case-insensitively (index `users_email_lower_idx`), with the address as stored;
   * the oldest when several.
   */
  async findByEmail(email: string): Promise<{ uid: string; email: string } | undefined> {
    return this.db
      .selectFrom('users')
      .select(['uid', 'email'])
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .orderBy('added_at')
      .limit(1)
      .executeTakeFirst();
  }

  /** Locks the user row for the rest of the transaction (serialises account-wide changes of one user). */
  async lock(uid: string, trx: Executor): Promise<UserRecord | undefined> {
    const row = await this.selectUser(trx).where('uid', '=', uid).forUpdate().executeTakeFirst();
    return row as UserRecord | undefined;
  }

  async nameOwner(name: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('uid')
      .where(sql`lower(name)`, '=', name.toLowerCase())
      .executeTakeFirst();
    return row?.uid;
  }

  /** Throws the unique violation when the uid or (case-insensitively) the name exists. */
  async insert(user: NewUser): Promise<void> {
    await this.db
      .insertInto('users')
      .values({ uid: user.uid, name: user.name, email: user.email, added_at: user.addedAt })
      .execute();
  }

  /**
   * One statement: renames unless the last change was after `changedBefore`. Returns false when that guard refused
   * (a concurrent rename won); throws the unique violation when the name is taken.
   */
  async rename(uid: string, name: string, now: number, changedBefore: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ name, last_name_change_at: now })
      .where('uid', '=', uid)
      .where((eb) =>
        eb.or([eb('last_name_change_at', 'is', null), eb('last_name_change_at', '<=', changedBefore)]),
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async updateEmail(uid: string, email: string): Promise<void> {
    await this.db.updateTable('users').set({ email }).where('uid', '=', uid).execute();
  }

  async updateProfile(uid: string, changes: ProfileChanges, trx: Executor): Promise<void> {
    const set: Record<string, unknown> = {};
    if (changes.bio !== undefined) set.profile_bio = changes.bio;
    if (changes.keyboard !== undefined) set.profile_keyboard = changes.keyboard;
    if (changes.showActivity !== undefined) set.profile_show_activity = changes.showActivity;
    if (changes.socialProfiles !== undefined)
      set.profile_social_profiles = JSON.stringify(changes.socialProfiles);
    if (changes.badges !== undefined) set.inventory_badges = JSON.stringify(changes.badges);
    if (Object.keys(set).length === 0) return;
    await trx.updateTable('users').set(set).where('uid', '=', uid).execute();
  }

  /** Sets the offset only while none is set; resets the streak's last result time. False when already set. */
  async setHourOffset(uid: string, hourOffset: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ streak_hour_offset: hourOffset, streak_last_result_at: now })
      .where('uid', '=', uid)
      .where('streak_hour_offset', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** One statement, creating the mode and mode2 levels as needed. False when the user does not exist. */
  async setLbMemory(uid: string, key: { mode: string; mode2: string; language: string }, rank: number) {
    const { mode, mode2, language } = key;
    const result = await this.db
      .updateTable('users')
      .set({
        lb_memory: sql`jsonb_set(
          jsonb_set(
            jsonb_set(lb_memory, ARRAY[${mode}]::text[], coalesce(lb_memory -> ${mode}, '{}'::jsonb)),
            ARRAY[${mode}, ${mode2}]::text[],
            coalesce(lb_memory -> ${mode} -> ${mode2}, '{}'::jsonb)
          ),
          ARRAY[${mode}, ${mode2}, ${language}]::text[],
          to_jsonb(${rank}::int)
        )`,
      })
      .where('uid', '=', uid)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async setLbOptOut(uid: string): Promise<void> {
    await this.db.updateTable('users').set({ lb_opt_out: true }).where('uid', '=', uid).execute();
  }

  async setFavoriteQuotes(uid: string, favorites: Record<string, string[]>, trx: Executor): Promise<void> {
    await trx
      .updateTable('users')
      .set({ favorite_quotes: JSON.stringify(favorites) })
      .where('uid', '=', uid)
      .execute();
  }

  async chatAccountOwner(chatId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select('uid')
      .where('chat_id', '=', chatId)
      .executeTakeFirst();
    return row?.uid;
  }

  /** Throws the unique violation when the chat account got linked to someone else meanwhile. */
  async setChatAccount(uid: string, chatId: string | null, chatAvatar: string | null): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ chat_id: chatId, chat_avatar: chatAvatar })
      .where('uid', '=', uid)
      .execute();
  }

  /**
   * Domain facts §5.10 reset: stats, XP, streak (its hour offset stays: spec "No move leaves the set state"), profile
   * details, favourites, chat link, leaderboard memory and opt-out are cleared; name, email, premium, badges, bans
   * and permissions stay.
   */
  async resetAccount(uid: string, trx: Executor): Promise<void> {
    await trx
      .updateTable('users')
      .set({
        completed_tests: 0,
        started_tests: 0,
        time_typing: 0,
        xp: 0,
        streak_length: 0,
        streak_max_length: 0,
        streak_last_result_at: 0,
        last_result_at: null,
        profile_bio: '',
        profile_keyboard: '',
        profile_social_profiles: '{}',
        profile_show_activity: false,
        favorite_quotes: '{}',
        chat_id: null,
        chat_avatar: null,
        lb_opt_out: false,
        lb_memory: '{}',
      })
      .where('uid', '=', uid)
      .execute();
  }

  /** User-owned tables cascade from `users`. */
  async delete(uid: string, trx: Executor): Promise<boolean> {
    const result = await trx.deleteFrom('users').where('uid', '=', uid).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
