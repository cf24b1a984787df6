import { Injectable, Logger } from '@nestjs/common';
import { QuoteReportsService, type ReportDecision } from '../quotes/quote-reports.service';
import { PasswordResetService } from '../users/password-reset.service';

/** The `/admin/*` actions that go through other features: report decisions (with inbox mail) and password resets. */
@Injectable()
export class AdminRequestsService {
  private readonly logger = new Logger(AdminRequestsService.name);

  constructor(
    private readonly reports: QuoteReportsService,
    private readonly passwordReset: PasswordResetService,
  ) {}

  async resolveReports(adminUid: string, decisions: ReportDecision[], accepted: boolean): Promise<void> {
    await this.reports.resolve(decisions, accepted);
    this.logger.log({ adminUid, reports: decisions.length, accepted }, 'reports handled');
  }

  /**
   * Mails a password-reset link to an account's address. Like the original, the answer does not depend on the
   * address: one without an account is only logged (contract facts §11).
   */
  async sendPasswordReset(adminUid: string, email: string): Promise<void> {
    await this.passwordReset.send(email, { by: 'admin', adminUid });
  }
}
