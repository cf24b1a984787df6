import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import type { Executor } from '../../infra/database/transaction';
import { InboxRepository } from './inbox.repository';
import type { NewMail } from './inbox.types';

/**
 * Sends mail to a user's inbox. Other features call `send`, optionally inside their own transaction, so a mail is
 * part of the state change that caused it. With the inbox turned off, mail is silently not delivered (as the original).
 */
@Injectable()
export class InboxService {
  private readonly logger = new Logger(InboxService.name);

  constructor(
    private readonly repository: InboxRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  /** Returns the new mail's id, or null when the inbox is disabled. */
  async send(uid: string, mail: NewMail, executor?: Executor): Promise<string | null> {
    const { inbox } = (await this.configuration.get()).users;
    if (!inbox.enabled || inbox.maxMail <= 0) return null;
    const id = await this.repository.insert(uid, mail, this.clock.now(), inbox.maxMail, executor);
    this.logger.log({ uid, mailId: id, subject: mail.subject }, 'mail sent');
    return id;
  }
}
