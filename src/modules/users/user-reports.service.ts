import { Injectable } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import { CaptchaVerifier } from '../../common/captcha/captcha-verifier';
import { QuoteReportsService } from '../quotes/quote-reports.service';
import type { ReportUserDto } from './dto/report.dto';
import { CAPTCHA_FAILED } from './users.service';
import { UsersRepository } from './users.repository';

export const SELF_REPORT = 'You cannot report yourself.';

/** `POST /users/report` (contract facts U36). */
@Injectable()
export class UserReportsService {
  constructor(
    private readonly reports: QuoteReportsService,
    private readonly users: UsersRepository,
    private readonly captcha: CaptchaVerifier,
  ) {}

  async report(uid: string, body: ReportUserDto, remoteIp: string): Promise<void> {
    // The `canReport` permission is the route's policy (checked before validation).
    if (!(await this.captcha.verify(body.captcha, remoteIp))) throw new AppError(422, CAPTCHA_FAILED);
    if (body.uid === uid) throw new AppError(400, SELF_REPORT);
    if (!(await this.users.findByUid(body.uid))) throw new AppError(404, MESSAGES.userNotFound);
    // Stored with the quote reports (one collection, as on the original): the admin routes decide both kinds.
    await this.reports.file({
      type: 'user',
      uid,
      contentId: body.uid,
      quoteId: null,
      quoteLanguage: null,
      reason: body.reason,
      comment: body.comment ?? '',
    });
  }
}
