import { Logger } from '@nestjs/common';
import type * as Nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail to users (password resets). */
export abstract class EmailSender {
  abstract send(mail: OutgoingMail): Promise<void>;
}

/**
 * Through an SMTP relay named by SMTP_URL (`smtp://` or `smtps://user:password@host:port`). nodemailer is loaded here,
 * when a relay is configured, not when this file is imported: a server without one would carry its ~40 modules for
 * nothing.
 */
export class SmtpEmailSender extends EmailSender {
  private readonly transport: Nodemailer.Transporter;
  private readonly logger = new Logger(SmtpEmailSender.name);

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    super();
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, see above
    const { createTransport } = require('nodemailer') as typeof Nodemailer;
    this.transport = createTransport(smtpUrl, { from });
  }

  async send(mail: OutgoingMail): Promise<void> {
    const info = (await this.transport.sendMail({ from: this.from, ...mail })) as { messageId?: string };
    this.logger.log({ subject: mail.subject, messageId: info.messageId }, 'mail sent');
  }
}

/**
 * Dev mode, or no SMTP relay configured: the mail is logged instead of sent. The body (which may hold a password
 * reset link) is logged only in dev; in production it stays at debug level.
 */
export class LoggingEmailSender extends EmailSender {
  private readonly logger = new Logger(LoggingEmailSender.name);

  constructor(private readonly showBody: boolean) {
    super();
  }

  send(mail: OutgoingMail): Promise<void> {
    if (this.showBody) {
      this.logger.log({ to: mail.to, subject: mail.subject, text: mail.text }, 'mail not sent (dev): logged');
    } else {
      this.logger.warn({ subject: mail.subject }, 'mail not sent: SMTP_URL is not configured');
      this.logger.debug({ to: mail.to, text: mail.text }, 'unsent mail');
    }
    return Promise.resolve();
  }
}
