import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { AppError } from '../../common/app-error';
import { CaptchaVerifier } from '../../common/captcha/captcha-verifier';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { ApproveQuoteDto, SubmitQuoteDto } from './dto';
import { QUOTE_MESSAGES } from './quote-messages';
import { QuoteReportsRepository } from './quote-reports.repository';
import { QuotesRepository } from './quotes.repository';
import type { Int } from '../../common/int';

/** How many submissions a moderator gets per `GET /quotes` (the original's page). */
const PENDING_PAGE = 10;

export interface Moderator {
  uid: string;
  name: string;
}

export interface QuoteSubmissionView {
  _id: string;
  text: string;
  source: string;
  language: string;
  submittedBy: string;
  timestamp: Int;
  approved: false;
}

export interface ApprovedQuoteView {
  message: string;
  data: { id: Int; text: string; source: string; length: Int; approvedBy: string };
}

@Injectable()
export class QuotesService implements OnModuleInit {
  private readonly logger = new Logger(QuotesService.name);

  constructor(
    private readonly repository: QuotesRepository,
    private readonly reports: QuoteReportsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly captcha: CaptchaVerifier,
    private readonly clock: Clock,
    private readonly lifecycle: AccountLifecycle,
  ) {}

  onModuleInit(): void {
    // Erasure (issue 22): what names a deleted account outside its own rows (its submissions and reports cascade).
    this.lifecycle.onDelete('quotes', async (uid, trx) => {
      await this.repository.unlinkUser(uid, trx);
      await this.reports.deleteReportsAbout(uid, trx);
    });
  }

  /**
   * Queues a submission. A text already approved or queued for the language is acknowledged but not stored again,
   * as the original does.
   */
  async submit(uid: string, dto: SubmitQuoteDto, ip: string): Promise<void> {
    if (!(await this.captcha.verify(dto.captcha, ip))) throw new AppError(422, QUOTE_MESSAGES.captchaFailed);
    const max = (await this.configuration.get()).quotes.maxQueuedPerLanguage;
    const id = newId();
    const outcome = await this.repository.enqueue(
      { id, uid, text: dto.text, source: dto.source, language: dto.language, submittedAt: this.clock.now() },
      max,
    );
    if (outcome === 'full') throw new AppError(409, QUOTE_MESSAGES.queueFull(max));
    this.logger.log({ uid, language: dto.language, quoteId: id, outcome }, 'quote submitted');
  }

  async isSubmissionEnabled(): Promise<boolean> {
    return (await this.configuration.get()).quotes.submissionsEnabled;
  }

  async listPending(): Promise<QuoteSubmissionView[]> {
    const pending = await this.repository.listPending(PENDING_PAGE);
    return pending.map((q) => ({
      _id: q.id,
      text: q.text,
      source: q.source,
      language: q.language,
      submittedBy: q.uid,
      timestamp: q.submittedAt,
      approved: false,
    }));
  }

  async approve(moderator: Moderator, dto: ApproveQuoteDto): Promise<ApprovedQuoteView> {
    const outcome = await this.repository.approve(
      dto.quoteId,
      (pending) => ({
        language: pending.language,
        // Empty edits keep the submitted values (the original treats them as "no edit").
        text: dto.editText || pending.text,
        source: dto.editSource || pending.source,
        submittedBy: pending.uid,
        approvedByUid: moderator.uid,
        approvedBy: moderator.name,
      }),
      this.clock.now(),
    );
    if (outcome.status === 'not-found') throw new AppError(404, QUOTE_MESSAGES.notFound);
    if (outcome.status === 'duplicate') throw new AppError(409, QUOTE_MESSAGES.duplicate);
    const { quote } = outcome;
    this.logger.log(
      { moderator: moderator.uid, submissionId: dto.quoteId, language: quote.language, quoteId: outcome.id },
      'quote approved',
    );
    return {
      message: outcome.firstInLanguage
        ? `Created file ${quote.language}.json and added quote.`
        : `Added quote to ${quote.language}.json.`,
      data: {
        id: outcome.id,
        text: quote.text,
        source: quote.source,
        length: quote.text.length,
        approvedBy: quote.approvedBy,
      },
    };
  }

  async reject(moderator: Moderator, quoteId: string): Promise<void> {
    if (!(await this.repository.reject(quoteId))) throw new AppError(404, QUOTE_MESSAGES.notFound);
    this.logger.log({ moderator: moderator.uid, submissionId: quoteId }, 'quote refused');
  }
}
