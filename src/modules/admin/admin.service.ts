import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import type { Permission } from '../../common/auth/policy.decorators';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { Clock } from '../../common/clock';
import { AdminRepository } from './admin.repository';

/**
 * Operator actions on accounts, shared by the CLI and the `/admin/*` routes: permissions, bans, premium, hour offsets.
 * It needs only the stores, so the CLI boots it without the API's features (reports and mails: AdminRequestsService).
 */
@Injectable()
export class AdminService {
  private readonly logger = new Logger(AdminService.name);

  constructor(
    private readonly repository: AdminRepository,
    private readonly clock: Clock,
    private readonly lifecycle: AccountLifecycle,
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
    // Boards purge the user, ApeKey caches drop their keys; an unban lets the all-time boards take the user back.
    await this.lifecycle.notify(banned ? 'ban' : 'unban', uid);
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

  /**
   * `POST /admin/toggleBan`: returns the new state; a ban purges the user from the boards at once, an unban queues
   * the user's all-time boards for the next live update.
   */
  async toggleBan(adminUid: string, uid: string): Promise<{ banned: boolean }> {
    const banned = await this.repository.toggleBanned(uid);
    if (banned === null) throw new AppError(404, MESSAGES.userNotFound);
    this.logger.log({ adminUid, uid, banned }, banned ? 'user banned' : 'user unbanned');
    await this.lifecycle.notify(banned ? 'ban' : 'unban', uid);
    return { banned };
  }

  /** Lets the user set their streak hour offset once more. */
  async clearStreakHourOffset(adminUid: string, uid: string): Promise<void> {
    if (!(await this.repository.clearStreakHourOffset(uid))) throw new AppError(404, MESSAGES.userNotFound);
    this.logger.log({ adminUid, uid }, 'streak hour offset cleared');
  }
}
