import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { sql } from 'kysely';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import type { Badge } from './inbox-rewards';
import type { Mail, MailReward, NewMail } from './inbox.types';

export type ClaimRule = (owned: Badge[], rewards: MailReward[]) => { xp: number; badges: Badge[] };

@Injectable()
export class InboxRepository {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  /** Adds a mail and drops the oldest ones beyond `capacity` (newest kept). */
  async insert(
    uid: string,
    mail: NewMail,
    now: number,
    capacity: number,
    executor: Executor = this.db,
  ): Promise<string> {
    const id = randomUUID();
    await executor
      .insertInto('inbox_mail')
      .values({
        id,
        uid,
        subject: mail.subject,
        body: mail.body,
        rewards: JSON.stringify(mail.rewards ?? []),
        timestamp: now,
        read: false,
      })
      .execute();
    await executor
      .deleteFrom('inbox_mail')
      .where('uid', '=', uid)
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('inbox_mail')
          .select('id')
          .where('uid', '=', uid)
          .orderBy('timestamp', 'desc')
          .orderBy('id', 'desc')
          .offset(capacity),
      )
      .execute();
    return id;
  }

  /** Newest first. */
  async list(uid: string): Promise<Mail[]> {
    const rows = await this.db
      .selectFrom('inbox_mail')
      .select(['id', 'subject', 'body', 'rewards', 'timestamp', 'read'])
      .where('uid', '=', uid)
      .orderBy('timestamp', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map((r) => ({ ...r, rewards: r.rewards as MailReward[] }));
  }

  async unreadCount(uid: string): Promise<number> {
    const row = await this.db
      .selectFrom('inbox_mail')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('uid', '=', uid)
      .where('read', '=', false)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * One transaction under the user's row lock, so concurrent updates of one inbox run one after the other and a
   * reward is claimed exactly once: rewards of unread mails being read or deleted go to the user (XP added, badges
   * merged by `claim`), read mails keep no rewards, deleted mails go. Ids of other users' mail match nothing.
   */
  async update(uid: string, markRead: string[], remove: string[], claim: ClaimRule): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const user = await trx
        .selectFrom('users')
        .select('inventory_badges')
        .where('uid', '=', uid)
        .forUpdate()
        .executeTakeFirst();
      if (!user) return;
      const ids = [...new Set([...markRead, ...remove])];
      const mails = await trx
        .selectFrom('inbox_mail')
        .select(['id', 'read', 'rewards'])
        .where('uid', '=', uid)
        .where('id', 'in', ids)
        .execute();
      const rewards = mails.filter((m) => !m.read).flatMap((m) => m.rewards as MailReward[]);
      const toDelete = mails.filter((m) => remove.includes(m.id)).map((m) => m.id);
      const toRead = mails.filter((m) => !m.read && !remove.includes(m.id)).map((m) => m.id);
      if (toDelete.length > 0) {
        await trx.deleteFrom('inbox_mail').where('uid', '=', uid).where('id', 'in', toDelete).execute();
      }
      if (toRead.length > 0) {
        await trx
          .updateTable('inbox_mail')
          .set({ read: true, rewards: '[]' })
          .where('uid', '=', uid)
          .where('id', 'in', toRead)
          .execute();
      }
      if (rewards.length === 0) return;
      const { xp, badges } = claim(user.inventory_badges as unknown as Badge[], rewards);
      await trx
        .updateTable('users')
        .set({ xp: sql`xp + ${xp}`, inventory_badges: JSON.stringify(badges) })
        .where('uid', '=', uid)
        .execute();
    });
  }

  async deleteAllOf(uid: string, trx: Executor): Promise<void> {
    await trx.deleteFrom('inbox_mail').where('uid', '=', uid).execute();
  }
}
