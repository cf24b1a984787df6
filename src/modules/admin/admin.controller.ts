import { Body, Controller, Get, Post } from '@nestjs/common';
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
import { ADMIN_DISABLED, REPORTS_HANDLED } from './admin-messages';
import { AdminRequestsService } from './admin-requests.service';
import { AdminService } from './admin.service';
import { AcceptReportsDto, AdminForgotPasswordDto, AdminUidDto, RejectReportsDto } from './dto/admin.dto';

/**
 * Admin routes of the original client (contract facts §11). The switch is checked before the permission
 * (docs/decisions/0010-check-order.md), so a disabled admin area answers 503 to everyone. Tokens are verified on
 * every call: a revoked admin loses access at once.
 */
@ApiTags('admin')
@Controller('admin')
@RequireConfiguration('admin.endpointsEnabled', ADMIN_DISABLED)
@RequirePermission('admin')
@NoTokenCache()
@RateLimit('adminLimit')
export class AdminController {
  constructor(
    private readonly admin: AdminService,
    private readonly requests: AdminRequestsService,
  ) {}

  /** Whether the caller may use the admin area. */
  @Get()
  check() {
    return ok('OK');
  }

  @Post('toggleBan')
  async toggleBan(@Auth() auth: AuthContext, @Body() body: AdminUidDto) {
    return ok('Ban toggled', await this.admin.toggleBan(auth.uid, body.uid));
  }

  @Post('clearStreakHourOffset')
  async clearStreakHourOffset(@Auth() auth: AuthContext, @Body() body: AdminUidDto) {
    await this.admin.clearStreakHourOffset(auth.uid, body.uid);
    return ok('Streak hour offset cleared');
  }

  /** Removes the reports and mails each reporter "Report approved". */
  @Post('report/accept')
  async acceptReports(@Auth() auth: AuthContext, @Body() body: AcceptReportsDto) {
    await this.requests.resolveReports(auth.uid, body.reports, true);
    return ok(REPORTS_HANDLED);
  }

  /** Removes the reports and mails each reporter "Report denied", with the reason when given. */
  @Post('report/reject')
  async rejectReports(@Auth() auth: AuthContext, @Body() body: RejectReportsDto) {
    await this.requests.resolveReports(auth.uid, body.reports, false);
    return ok(REPORTS_HANDLED);
  }

  @Post('sendForgotPasswordEmail')
  async sendForgotPasswordEmail(@Auth() auth: AuthContext, @Body() body: AdminForgotPasswordDto) {
    await this.requests.sendPasswordReset(auth.uid, body.email);
    return ok('Password reset request email sent.');
  }
}
