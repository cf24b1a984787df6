import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import { IdentityProvider } from '../../common/auth/identity-provider';
import { QuoteReportsService, type ReportDecision } from '../quotes/quote-reports.service';
import { EmailSender } from '../users/email/email-sender';

/** The `/admin/*` actions that go through other features: report decisions (with inbox mail) and password resets. */
@Injectable()
export class AdminRequestsService {
  private readonly logger = new Logger(AdminRequestsService.name);

  constructor(
    private readonly reports: QuoteReportsService,
    private readonly identity: IdentityProvider,
    private readonly email: EmailSender,
  ) {}

  async resolveReports(adminUid: string, decisions: ReportDecision[], accepted: boolean): Promise<void> {
    await this.reports.resolve(decisions, accepted);
    this.logger.log({ adminUid, reports: decisions.length, accepted }, 'reports handled');
  }

  /** Mails a password-reset link to an account's address; unlike the public route, an unknown address is a 404. */
  async sendPasswordReset(adminUid: string, email: string): Promise<void> {
    const link = await this.identity.generatePasswordResetLink(email);
    if (link === null) throw new AppError(404, MESSAGES.userNotFound);
    await this.email.send({
      to: email,
      subject: 'Reset your password',
      text:
        `Support sent you this link to choose a new password for your account:\n${link}\n\n` +
        'If you did not ask for it, ignore this mail: your password stays as it is.',
    });
    this.logger.log({ adminUid }, 'password reset mail sent by an admin');
  }
}
