import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import type { Permission } from '../../common/auth/policy.decorators';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { Clock } from '../../common/clock';
import { IdentityProvider } from '../../common/auth/identity-provider';
import { QuoteReportsService, type ReportDecision } from '../quotes/quote-reports.service';
import { EmailSender } from '../users/email/email-sender';
import { AdminRepository } from './admin.repository';

/** Operator actions of the CLI and the `/admin/*` routes: permissions, bans, premium, reports, password resets. */
@Injectable()
export class AdminService {
  private readonly logger = new Logger(AdminService.name);

  constructor(
    private readonly repository: AdminRepository,
    private readonly clock: Clock,
    private readonly lifecycle: AccountLifecycle,
    private readonly reports: QuoteReportsService,
    private readonly identity: IdentityProvider,
    private readonly email: EmailSender,
  ) {}

  private async requireUser(uid: string): Promise<void> {
    if (!(await this.repository.userExists(uid))) throw new AppError(404, `${MESSAGES.userNotFound}: ${uid}`);
  }

  async grantPermission(uid: string, permission: Permission): Promise<void> {
    await this.requireUser(uid);
    await this.repository.grantPermission(uid, permission, this.clock.now());
    this.logger.log({ uid, permission }, 'permission granted');
  }

  async revokePermission(uid: string, permission: Permission): Promise<boolean> {
    await this.requireUser(uid);
    const revoked = await this.repository.revokePermission(uid, permission);
    this.logger.log({ uid, permission, revoked }, 'permission revoked');
    return revoked;
  }

  async setBanned(uid: string, banned: boolean): Promise<void> {
    await this.requireUser(uid);
    await this.repository.setBanned(uid, banned);
    this.logger.log({ uid, banned }, banned ? 'user banned' : 'user unbanned');
    // Boards purge the user, ApeKey caches drop their keys.
    if (banned) await this.lifecycle.notify('ban', uid);
  }

  /** `expiresAt` in ms since the epoch, or -1 for lifetime premium. */
  async setPremium(uid: string, expiresAt: number): Promise<void> {
    if (!Number.isInteger(expiresAt) || (expiresAt !== -1 && expiresAt <= 0)) {
      throw new AppError(400, 'Premium expiration must be a timestamp in milliseconds or -1 for lifetime');
    }
    await this.requireUser(uid);
    await this.repository.setPremium(uid, expiresAt, this.clock.now());
    this.logger.log({ uid, expiresAt }, 'premium set');
  }

  async clearPremium(uid: string): Promise<void> {
    await this.requireUser(uid);
    await this.repository.setPremium(uid, null, this.clock.now());
    this.logger.log({ uid }, 'premium cleared');
  }

  /** `POST /admin/toggleBan`: returns the new state; a ban purges the user from the boards at once. */
  async toggleBan(adminUid: string, uid: string): Promise<{ banned: boolean }> {
    const banned = await this.repository.toggleBanned(uid);
    if (banned === null) throw new AppError(404, MESSAGES.userNotFound);
    this.logger.log({ adminUid, uid, banned }, banned ? 'user banned' : 'user unbanned');
    if (banned) await this.lifecycle.notify('ban', uid);
    return { banned };
  }

  /** Lets the user set their streak hour offset once more. */
  async clearStreakHourOffset(adminUid: string, uid: string): Promise<void> {
    if (!(await this.repository.clearStreakHourOffset(uid))) throw new AppError(404, MESSAGES.userNotFound);
    this.logger.log({ adminUid, uid }, 'streak hour offset cleared');
  }

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
