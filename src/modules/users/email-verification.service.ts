import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import type { AuthContext } from '../../common/http/request-context';
import { EmailSender } from './email/email-sender';
import { EmailVerificationLinks } from './email/email-verification-links';
import { UsersRepository } from './users.repository';

export const VERIFICATION_MESSAGES = {
  sent: 'Email sent',
  alreadyVerified: 'Email already verified',
  mismatch:
    'Authenticated email does not match the email found in the database. This might happen if you recently changed your email. Please refresh and try again.',
  byProvider:
    'Email verification is handled by the identity provider: use its verification mail or account page to verify your address.',
  tooManyRequests: 'Too many requests. Please try again later',
  tooManyProviderRequests: 'Too many Firebase requests. Please try again later',
  authUserMissing:
    'Auth user not found when the user was found in the database. Contact support with this error message and your email',
} as const;

function providerError(e: unknown): { code: string; message: string } {
  const { code, message } = (typeof e === 'object' && e !== null ? e : {}) as {
    code?: unknown;
    message?: unknown;
  };
  return { code: String(code ?? ''), message: String(message ?? e) };
}

/** `GET /users/verificationEmail` (contract facts U37): the identity provider's link, sent by our mailer. */
@Injectable()
export class EmailVerificationService {
  private readonly logger = new Logger(EmailVerificationService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly links: EmailVerificationLinks,
    private readonly email: EmailSender,
  ) {}

  async send(auth: AuthContext): Promise<void> {
    if (this.links.handledByProvider()) throw new AppError(400, VERIFICATION_MESSAGES.byProvider);
    const account = await this.links.account(auth.uid);
    if (account === null) throw new AppError(500, VERIFICATION_MESSAGES.authUserMissing);
    if (account.emailVerified) throw new AppError(400, VERIFICATION_MESSAGES.alreadyVerified);
    const user = await this.users.findByUid(auth.uid);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    // The token's address is the one the link verifies; after an email change the client must refresh first.
    if (user.email.toLowerCase() !== auth.email.toLowerCase()) {
      throw new AppError(400, VERIFICATION_MESSAGES.mismatch);
    }
    const link = await this.generate(auth.email);
    await this.email.send({
      to: auth.email,
      subject: 'Verify your email',
      text:
        `Hello ${user.name},\n\nTo verify the email address of your account, open this link:\n${link}\n\n` +
        'If you did not ask for this, ignore this mail.',
    });
    this.logger.log({ uid: auth.uid }, 'verification email sent');
  }

  private async generate(email: string): Promise<string> {
    try {
      return await this.links.generate(email);
    } catch (e) {
      const { code, message } = providerError(e);
      if (code === 'auth/user-not-found') throw new AppError(500, VERIFICATION_MESSAGES.authUserMissing);
      if (code === 'auth/too-many-requests') throw new AppError(429, VERIFICATION_MESSAGES.tooManyRequests);
      if (code === 'auth/internal-error' && message.includes('TOO_MANY_ATTEMPTS_TRY_LATER')) {
        throw new AppError(429, VERIFICATION_MESSAGES.tooManyProviderRequests);
      }
      this.logger.error({ code, err: message }, 'verification link failed');
      throw new AppError(500, `Failed to generate an email verification link: ${message}`);
    }
  }
}
