import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { CaptchaVerifier } from '../../common/captcha/captcha-verifier';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { ReportQuoteDto } from './dto';
import { QUOTE_MESSAGES } from './quote-messages';
import { InboxService } from '../inbox/inbox.service';
import { QuoteReportsRepository, type NewReport, type StoredReport } from './quote-reports.repository';

export interface ReportDecision {
  reportId: string;
  /** Told to the reporter of a denied report. */
  reason?: string;
}

/** The reporter's mail (subjects from contract facts §11; the bodies are ours). */
export function reportMail(report: StoredReport, accepted: boolean, reason?: string) {
  if (accepted) {
    return {
      subject: 'Report approved',
      body: `Your report regarding ${report.type} ${report.contentId} (${report.reason}) has been approved. Thank you.`,
    };
  }
  return {
    subject: 'Report denied',
    body:
      `Sorry, but your report regarding ${report.type} ${report.contentId} (${report.reason}) has been denied.` +
      (reason ? `\nReason: ${reason}` : ''),
  };
}

@Injectable()
export class QuoteReportsService {
  private readonly logger = new Logger(QuoteReportsService.name);

  constructor(
    private readonly repository: QuoteReportsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly captcha: CaptchaVerifier,
    private readonly clock: Clock,
    private readonly inbox: InboxService,
  ) {}

  /**
   * Records a report of a quote. Quotes live in the clients' quote lists too, so the quote is not required to be in
   * our table; the report names it by language and id.
   */
  async report(uid: string, dto: ReportQuoteDto, ip: string): Promise<void> {
    if (!(await this.captcha.verify(dto.captcha, ip))) throw new AppError(422, QUOTE_MESSAGES.captchaFailed);
    await this.file({
      type: 'quote',
      uid,
      contentId: `${dto.quoteLanguage}-${dto.quoteId}`,
      quoteId: dto.quoteId,
      quoteLanguage: dto.quoteLanguage,
      reason: dto.reason,
      comment: dto.comment ?? '',
    });
  }

  /**
   * Stores a report of either kind (quotes here, users through `POST /users/report`) within the configured limits,
   * with the original's answers when a limit says no.
   */
  async file(report: NewReport): Promise<void> {
    const { maxReports, contentReportLimit } = (await this.configuration.get()).quotes.reporting;
    const outcome = await this.repository.insertWithinLimits(
      report,
      { maxReports, contentReportLimit },
      this.clock.now(),
    );
    switch (outcome) {
      case 'backlog-full':
        throw new AppError(503, QUOTE_MESSAGES.backlogFull);
      case 'content-limit':
        throw new AppError(409, QUOTE_MESSAGES.contentLimit);
      case 'already-reported':
        throw new AppError(409, QUOTE_MESSAGES.alreadyReported);
      case 'reported':
        this.logger.log(
          { uid: report.uid, type: report.type, contentId: report.contentId, reason: report.reason },
          `${report.type} reported`,
        );
    }
  }

  /**
   * Accepts or rejects reports (admins): they are removed and each reporter gets a mail, in one transaction. Any
   * unknown id → 404 naming the unknown ids, and nothing changes.
   */
  async resolve(decisions: ReportDecision[], accepted: boolean): Promise<void> {
    const reasons = new Map(decisions.map((d) => [d.reportId.toLowerCase(), d.reason]));
    const ids = [...new Set(decisions.map((d) => d.reportId))];
    const { missing } = await this.repository.resolve(ids, async (reports, trx) => {
      for (const report of reports) {
        await this.inbox.send(report.uid, reportMail(report, accepted, reasons.get(report.id)), trx);
      }
    });
    if (missing.length > 0) throw new AppError(404, `Reports not found for some IDs ${missing.join(',')}`);
    this.logger.log({ reports: ids, accepted }, accepted ? 'reports accepted' : 'reports rejected');
  }
}
