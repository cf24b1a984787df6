import { Injectable, Logger } from '@nestjs/common';
import { IdentityProvider } from '../../common/auth/identity-provider';
import { EmailSender } from './email/email-sender';
import { UsersRepository } from './users.repository';

/** What became of a reset request; both routes answer 200 whatever it is (contract facts U38, §11). */
export type PasswordResetOutcome = 'sent' | 'no-account' | 'by-provider';

/** Who asked: the user on the sign-in page, or an admin for them (the mail says which). */
export type PasswordResetRequester = { by: 'user' } | { by: 'admin'; adminUid: string };

const MAIL_TEXT = {
  user:
    'Someone asked to reset the password of your account.\n\nTo choose a new password, open this link:\n{link}\n\n' +
    'If it was not you, ignore this mail: your password stays as it is.',
  admin:
    'Support sent you this link to choose a new password for your account:\n{link}\n\n' +
    'If you did not ask for it, ignore this mail: your password stays as it is.',
};

/**
 * Password-reset links for `POST /users/forgotPasswordEmail` and `POST /admin/sendForgotPasswordEmail`. The account
 * is ours (a user row with that address, case-insensitively); the link is the identity provider's: Firebase makes
 * one, an OIDC issuer resets passwords on its own pages (nothing for us to send), and in dev without a provider the
 * link is made up and the dev mailer logs it, as `GET /users/verificationEmail` does. An address without an account
 * gets the same answer as any other (the original never tells), with a log line saying so.
 */
@Injectable()
export class PasswordResetService {
  private readonly logger = new Logger(PasswordResetService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly identity: IdentityProvider,
    private readonly email: EmailSender,
  ) {}

  async send(address: string, requester: PasswordResetRequester): Promise<PasswordResetOutcome> {
    const adminUid = requester.by === 'admin' ? requester.adminUid : undefined;
    const account = await this.users.findByEmail(address);
    if (account === undefined) {
      this.logger.log({ adminUid }, 'password reset requested for an address no account has: nothing sent');
      return 'no-account';
    }
    // The address as the account has it: the provider's account and the mail go by that one.
    const { uid, email } = account;
    const link = await this.identity.generatePasswordResetLink(email);
    if (link === null) {
      this.logger.log(
        { uid, adminUid, provider: this.identity.kind },
        'password reset not sent: the identity provider makes no link for this address (an OIDC issuer resets passwords on its own pages)',
      );
      return 'by-provider';
    }
    await this.email.send({
      to: email,
      subject: 'Reset your password',
      text: MAIL_TEXT[requester.by].replace('{link}', link),
    });
    this.logger.log({ uid, adminUid }, 'password reset link mailed');
    return 'sent';
  }
}
