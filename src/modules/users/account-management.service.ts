import { Injectable, Logger } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { AppError, MESSAGES } from '../../common/app-error';
import { IdentityProvider } from '../../common/auth/identity-provider';
import { TokenVerifierService } from '../../common/auth/token-verifier.service';
import { CaptchaVerifier } from '../../common/captcha/captcha-verifier';
import { Clock } from '../../common/clock';
import { ChatStateRepository } from './chat/chat-state.repository';
import { blocklistEntries } from './blocklist';
import { BlocklistRepository } from './blocklist.repository';
import { PasswordResetService } from './password-reset.service';
import { DAY_MS } from './test-activity';
import { CAPTCHA_FAILED } from './users.service';
import { NAME_INDEX, uniqueViolation, UsersRepository } from './users.repository';

/** Spec "Username": once per 30 days. */
export const NAME_CHANGE_INTERVAL_MS = 30 * DAY_MS;

function providerCode(e: unknown): string {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
}

/**
 * Account-wide changes: name, email, password, sessions, leaderboard opt-out, reset and deletion
 * (docs/decisions/0028-account-lifecycle-routes.md; the fresh-token and no-ApeKey rules are on the routes).
 */
@Injectable()
export class AccountManagementService {
  private readonly logger = new Logger(AccountManagementService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly chatStates: ChatStateRepository,
    private readonly identity: IdentityProvider,
    private readonly tokens: TokenVerifierService,
    private readonly captcha: CaptchaVerifier,
    private readonly passwordReset: PasswordResetService,
    private readonly lifecycle: AccountLifecycle,
    private readonly clock: Clock,
    private readonly blocklist: BlocklistRepository,
  ) {}

  async rename(uid: string, name: string): Promise<void> {
    const user = await this.users.findByUid(uid);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    // Contract facts U6: the blocklist is checked first.
    if (await this.blocklist.contains({ name })) throw new AppError(409, 'Username blocked');
    if (user.banned) throw new AppError(403, 'Banned users cannot change their name');
    const now = this.clock.now();
    const changedBefore = now - NAME_CHANGE_INTERVAL_MS;
    const tooSoon = new AppError(409, 'You can change your name once every 30 days');
    if (user.lastNameChangeAt !== null && user.lastNameChangeAt > changedBefore) throw tooSoon;
    if (user.name === name) throw new AppError(400, 'New name is the same as the old name');
    let renamed: boolean;
    try {
      renamed = await this.users.rename(uid, name, now, changedBefore);
    } catch (e) {
      if (uniqueViolation(e) === NAME_INDEX) throw new AppError(409, 'Username already taken');
      throw e;
    }
    // A concurrent rename of the same account committed first.
    if (!renamed) throw tooSoon;
    // Connections join users for names, so nothing else needs renaming.
    this.logger.log({ uid, from: user.name, to: name }, 'user renamed');
  }

  async optOutOfLeaderboards(uid: string): Promise<void> {
    await this.users.setLbOptOut(uid);
    this.logger.log({ uid }, 'user opted out of leaderboards');
    await this.lifecycle.notify('optOut', uid);
  }

  /**
   * Same answer whether or not the address has an account. The link is fetched and mailed after the response,
   * so the response time does not tell either.
   */
  async requestPasswordReset(email: string, captcha: string, remoteIp: string): Promise<void> {
    if (!(await this.captcha.verify(captcha, remoteIp))) throw new AppError(422, CAPTCHA_FAILED);
    void this.passwordReset
      .send(email, { by: 'user' })
      .catch((e: Error) => this.logger.error({ err: e.message }, 'password reset mail failed'));
  }

  async updateEmail(uid: string, newEmail: string): Promise<void> {
    const email = newEmail.toLowerCase();
    try {
      await this.identity.updateEmail(uid, email);
    } catch (e) {
      switch (providerCode(e)) {
        case 'auth/email-already-exists':
          throw new AppError(409, 'The email address is already in use by another account');
        case 'auth/invalid-email':
          throw new AppError(400, 'Invalid email address');
        case 'auth/too-many-requests':
          throw new AppError(429, 'Too many requests. Please try again later');
        case 'auth/user-not-found':
          throw new AppError(404, 'User not found in the auth system');
        default:
          throw e;
      }
    }
    await this.users.updateEmail(uid, email);
    await this.tokens.revokeAll(uid);
    this.logger.log({ uid }, 'email updated');
  }

  async updatePassword(uid: string, password: string): Promise<void> {
    await this.identity.updatePassword(uid, password);
    await this.tokens.revokeAll(uid);
    this.logger.log({ uid }, 'password updated');
  }

  async revokeAllTokens(uid: string): Promise<void> {
    await this.tokens.revokeAll(uid);
    this.logger.log({ uid }, 'all tokens revoked');
  }

  /**
   * One transaction: a banned account's name, email and chat id go to the blocklist (domain facts §5.10), what mentions
   * the user elsewhere goes (each feature's delete handler), then the user row and every user-owned row by cascade;
   * then the identity-provider account. The export's record types are the checklist
   * (test/e2e/portability/erasure.e2e-spec.ts).
   */
  async deleteAccount(uid: string): Promise<void> {
    await this.users.inTransaction(async (trx) => {
      const user = await this.users.lock(uid, trx);
      if (user?.banned) {
        const entries = blocklistEntries({ name: user.name, email: user.email, chatId: user.chatId });
        await this.blocklist.add(entries, this.clock.now(), trx);
      }
      await this.lifecycle.runDelete(uid, trx);
      await this.users.delete(uid, trx);
    });
    await this.identity.deleteUser(uid);
    await this.tokens.evictEverywhere(uid);
    await this.chatStates.discard(uid);
    this.logger.log({ uid }, 'user deleted');
    await this.lifecycle.notify('delete', uid);
  }

  /** Domain facts §5.10; every feature clears its rows of the user in the same transaction. */
  async resetAccount(uid: string): Promise<void> {
    await this.users.inTransaction(async (trx) => {
      const user = await this.users.lock(uid, trx);
      if (!user) throw new AppError(404, MESSAGES.userNotFound);
      if (user.banned) throw new AppError(403, 'Banned users cannot reset their account');
      await this.users.resetAccount(uid, trx);
      await this.lifecycle.runReset(uid, trx);
    });
    await this.chatStates.discard(uid);
    this.logger.log({ uid }, 'user reset');
    await this.lifecycle.notify('reset', uid);
  }
}
