import { Body, Controller, Get, Ip, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  Auth,
  NoTokenCache,
  RateLimit,
  RequireConfiguration,
  RequirePermission,
} from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { ReportUserDto } from './dto/report.dto';
import { EmailVerificationService, VERIFICATION_MESSAGES } from './email-verification.service';
import { QUOTE_MESSAGES } from '../quotes/quote-messages';
import { SELF_REPORT, UserReportsService } from './user-reports.service';
import { CAPTCHA_FAILED } from './users.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';

/** Requests a user makes of the platform's staff or mailer: a verification mail, a report of another user. */
@ApiTags('users')
@Controller('users')
export class UsersRequestsController {
  constructor(
    private readonly verification: EmailVerificationService,
    private readonly reports: UserReportsService,
  ) {}

  /** The token is checked with the provider (no cache): a verified or changed address must show at once. */
  @Get('verificationEmail')
  @NoTokenCache()
  @RateLimit('userRequestVerificationEmail')
  @ApiFailure(
    400,
    VERIFICATION_MESSAGES.byProvider,
    VERIFICATION_MESSAGES.alreadyVerified,
    VERIFICATION_MESSAGES.mismatch,
  )
  @ApiFailure(429, VERIFICATION_MESSAGES.tooManyRequests, VERIFICATION_MESSAGES.tooManyProviderRequests)
  @ApiFailure(
    500,
    VERIFICATION_MESSAGES.authUserMissing,
    'Failed to generate an email verification link: <reason>',
  )
  async verificationEmail(@Auth() auth: AuthContext) {
    await this.verification.send(auth);
    return ok(VERIFICATION_MESSAGES.sent);
  }

  /** Stored with the quote reports, for the same moderation queue (contract facts U36). */
  @Post('report')
  @RequireConfiguration('quotes.reporting.enabled', 'User reporting is unavailable.')
  @RequirePermission('canReport')
  @RateLimit('quoteReportSubmit')
  @ApiFailure(
    409,
    'You have already reported this content.',
    'A report limit for this content has been reached.',
  )
  @ApiFailure(400, SELF_REPORT)
  @ApiFailure(422, CAPTCHA_FAILED)
  @ApiFailure(503, QUOTE_MESSAGES.backlogFull)
  async report(@Auth() auth: AuthContext, @Body() body: ReportUserDto, @Ip() ip: string) {
    await this.reports.report(auth.uid, body, ip);
    return ok('User reported');
  }
}
