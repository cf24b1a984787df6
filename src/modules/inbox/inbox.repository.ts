import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DATABASE, type Database } from '../../infra/database/database';
import type { Executor } from '../../infra/database/transaction';
import type { NewMail } from './inbox.types';

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
}
