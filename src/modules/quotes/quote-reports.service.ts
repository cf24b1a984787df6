import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { CaptchaVerifier } from '../../common/captcha/captcha-verifier';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import type { ReportQuoteDto } from './dto';
import { QUOTE_MESSAGES } from './quote-messages';
import { QuoteReportsRepository } from './quote-reports.repository';

@Injectable()
export class QuoteReportsService {
  private readonly logger = new Logger(QuoteReportsService.name);

  constructor(
    private readonly repository: QuoteReportsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly captcha: CaptchaVerifier,
    private readonly clock: Clock,
  ) {}

  /**
   * Records a report of a quote. Quotes live in the clients' quote lists too, so the quote is not required to be in
   * our table; the report names it by language and id.
   */
  async report(uid: string, dto: ReportQuoteDto, ip: string): Promise<void> {
    if (!(await this.captcha.verify(dto.captcha, ip))) throw new AppError(422, QUOTE_MESSAGES.captchaFailed);
    const { maxReports, contentReportLimit } = (await this.configuration.get()).quotes.reporting;
    const contentId = `${dto.quoteLanguage}-${dto.quoteId}`;
    const outcome = await this.repository.insertWithinLimits(
      {
        uid,
        contentId,
        quoteId: dto.quoteId,
        quoteLanguage: dto.quoteLanguage,
        reason: dto.reason,
        comment: dto.comment ?? '',
      },
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
        this.logger.log({ uid, contentId, reason: dto.reason }, 'quote reported');
    }
  }
}
