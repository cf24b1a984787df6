import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { Executor } from '../../infra/database/transaction';
import { claimRewards } from './inbox-rewards';
import { InboxRepository } from './inbox.repository';
import type { Mail, NewMail } from './inbox.types';
import type { Int } from '../../common/int';

/**
 * A user's inbox. Other features call `send`, optionally inside their own transaction, so a mail is part of the
 * state change that caused it. With the inbox turned off, mail is silently not delivered (as the original).
 */
@Injectable()
export class InboxService implements OnModuleInit {
  private readonly logger = new Logger(InboxService.name);

  constructor(
    private readonly repository: InboxRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
    private readonly lifecycle: AccountLifecycle,
  ) {}

  onModuleInit(): void {
    // Domain facts §5.10: an account reset empties the inbox.
    this.lifecycle.onReset('inbox', (uid, trx) => this.repository.deleteAllOf(uid, trx));
  }

  /** Returns the new mail's id, or null when the inbox is disabled. */
  async send(uid: string, mail: NewMail, executor?: Executor): Promise<string | null> {
    const { inbox } = (await this.configuration.get()).users;
    if (!inbox.enabled || inbox.maxMail <= 0) return null;
    const id = await this.repository.insert(uid, mail, this.clock.now(), inbox.maxMail, executor);
    this.logger.log({ uid, mailId: id, subject: mail.subject }, 'mail sent');
    return id;
  }

  async list(uid: string): Promise<{ inbox: Mail[]; maxMail: Int }> {
    const { maxMail } = (await this.configuration.get()).users.inbox;
    return { inbox: await this.repository.list(uid), maxMail };
  }

  unreadCount(uid: string): Promise<number> {
    return this.repository.unreadCount(uid);
  }

  /** Unknown ids (and other users' mail ids) are ignored. */
  async update(uid: string, markRead: string[] = [], remove: string[] = []): Promise<void> {
    if (markRead.length === 0 && remove.length === 0) return;
    await this.repository.update(uid, markRead, remove, claimRewards);
    this.logger.log({ uid, read: markRead.length, deleted: remove.length }, 'inbox updated');
  }
}
