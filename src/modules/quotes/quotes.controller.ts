import { Body, Controller, Get, Ip, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  Account,
  Auth,
  Public,
  RateLimit,
  RequireConfiguration,
  RequirePermission,
} from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext, CallerAccount } from '../../common/http/request-context';
import { ApproveQuoteDto, RejectQuoteDto, ReportQuoteDto, SubmitQuoteDto } from './dto';
import { QUOTE_MESSAGES } from './quote-messages';
import { QuoteReportsService } from './quote-reports.service';
import { QuotesService, type Moderator } from './quotes.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';

function moderatorOf(auth: AuthContext, account: CallerAccount | undefined): Moderator {
  return { uid: auth.uid, name: account?.name ?? auth.uid };
}

@ApiTags('quotes')
@Controller('quotes')
export class QuotesController {
  constructor(
    private readonly quotes: QuotesService,
    private readonly reports: QuoteReportsService,
  ) {}

  /** The oldest pending submissions (moderators). */
  @Get()
  @RequirePermission('quoteMod')
  @RateLimit('newQuotesGet')
  async listPending() {
    return ok('Quote submissions retrieved', await this.quotes.listPending());
  }

  /** Whether `POST /quotes` is open (the client hides its submission form otherwise). */
  @Get('isSubmissionEnabled')
  @Public()
  @RateLimit('newQuotesIsSubmissionEnabled')
  async isSubmissionEnabled() {
    const isEnabled = await this.quotes.isSubmissionEnabled();
    return ok(isEnabled ? 'Quote submission enabled' : 'Quote submission disabled', { isEnabled });
  }

  @Post()
  @RequireConfiguration('quotes.submissionsEnabled', QUOTE_MESSAGES.submissionsDisabled)
  @RateLimit('newQuotesAdd')
  @ApiFailure(409, 'There are already <max> quotes in the queue for this language.')
  @ApiFailure(422, QUOTE_MESSAGES.captchaFailed)
  async submit(@Auth() auth: AuthContext, @Body() body: SubmitQuoteDto, @Ip() ip: string) {
    await this.quotes.submit(auth.uid, body, ip);
    return ok('Quote submission added');
  }

  /** Moves a submission into the quotes of its language. */
  @Post('approve')
  @RequirePermission('quoteMod')
  @RateLimit('newQuotesAction')
  @ApiFailure(404, QUOTE_MESSAGES.notFound)
  @ApiFailure(409, QUOTE_MESSAGES.duplicate)
  async approve(
    @Auth() auth: AuthContext,
    @Account() account: CallerAccount | undefined,
    @Body() body: ApproveQuoteDto,
  ) {
    const { message, data } = await this.quotes.approve(moderatorOf(auth, account), body);
    return ok(message, data);
  }

  @Post('reject')
  @RequirePermission('quoteMod')
  @RateLimit('newQuotesAction')
  @ApiFailure(404, QUOTE_MESSAGES.notFound)
  async reject(
    @Auth() auth: AuthContext,
    @Account() account: CallerAccount | undefined,
    @Body() body: RejectQuoteDto,
  ) {
    await this.quotes.reject(moderatorOf(auth, account), body.quoteId);
    return ok('Quote refused');
  }

  @Post('report')
  @RequireConfiguration('quotes.reporting.enabled', QUOTE_MESSAGES.reportingDisabled)
  @RequirePermission('canReport')
  @RateLimit('quoteReportSubmit')
  @ApiFailure(409, QUOTE_MESSAGES.alreadyReported, QUOTE_MESSAGES.contentLimit)
  @ApiFailure(422, QUOTE_MESSAGES.captchaFailed)
  @ApiFailure(503, QUOTE_MESSAGES.backlogFull)
  async report(@Auth() auth: AuthContext, @Body() body: ReportQuoteDto, @Ip() ip: string) {
    await this.reports.report(auth.uid, body, ip);
    return ok('Quote reported');
  }
}
