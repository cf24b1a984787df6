import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import { CaptchaVerifier } from '../../common/captcha/captcha-verifier';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import type { ReportUserDto } from './dto/report.dto';
import { UserReportsRepository } from './user-reports.repository';
import { CAPTCHA_FAILED } from './users.service';
import { UsersRepository } from './users.repository';

/** `POST /users/report` (contract facts U36). */
@Injectable()
export class UserReportsService {
  private readonly logger = new Logger(UserReportsService.name);

  constructor(
    private readonly reports: UserReportsRepository,
    private readonly users: UsersRepository,
    private readonly captcha: CaptchaVerifier,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  async report(uid: string, body: ReportUserDto, remoteIp: string): Promise<void> {
    // The `canReport` permission is the route's policy (checked before validation).
    if (!(await this.captcha.verify(body.captcha, remoteIp))) throw new AppError(422, CAPTCHA_FAILED);
    if (body.uid === uid) throw new AppError(400, 'You cannot report yourself.');
    if (!(await this.users.findByUid(body.uid))) throw new AppError(404, MESSAGES.userNotFound);
    const { maxReports, contentReportLimit } = (await this.configuration.get()).quotes.reporting;
    const outcome = await this.reports.insertWithinLimits(
      { uid, reportedUid: body.uid, reason: body.reason, comment: body.comment ?? '' },
      { maxReports, contentReportLimit },
      this.clock.now(),
    );
    switch (outcome) {
      case 'backlog-full':
        throw new AppError(
          503,
          'Reports are not being accepted at this time due to a large backlog of reports. Please try again later.',
        );
      case 'content-limit':
        throw new AppError(409, 'A report limit for this content has been reached.');
      case 'already-reported':
        throw new AppError(409, 'You have already reported this content.');
      case 'reported':
        this.logger.log({ uid, reportedUid: body.uid, reason: body.reason }, 'user reported');
    }
  }
}
