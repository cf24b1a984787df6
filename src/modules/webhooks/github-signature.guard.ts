import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../common/app-error';
import { APP_ENV, type AppEnv } from '../../config/env';
import { checkGithubSignature } from './github-signature';

export const WEBHOOK_MESSAGES = {
  secretMissing: 'Missing Github Webhook Secret',
  signatureMissing: 'Missing Github signature header',
  signatureInvalid: 'Github webhook signature invalid',
} as const;

/**
 * Authenticates a GitHub webhook delivery by its signature over the exact request bytes (the route is
 * `@SelfAuthenticated()`, so the global guard ignores the Authorization header). Runs before body validation, so
 * an unsigned caller learns nothing about the payload schema.
 */
@Injectable()
export class GithubSignatureGuard implements CanActivate {
  private readonly logger = new Logger(GithubSignatureGuard.name);

  constructor(@Inject(APP_ENV) private readonly env: AppEnv) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const secret = this.env.githubWebhookSecret;
    if (!secret) {
      this.logger.error({}, 'GITHUB_WEBHOOK_SECRET is not set; refusing webhook deliveries');
      throw new AppError(500, WEBHOOK_MESSAGES.secretMissing);
    }
    const check = checkGithubSignature(secret, request.rawBody ?? '', request.headers['x-hub-signature-256']);
    if (check === 'valid') return true;
    this.logger.warn({ ip: request.ip, check }, 'webhook delivery refused');
    throw new AppError(
      401,
      check === 'missing' ? WEBHOOK_MESSAGES.signatureMissing : WEBHOOK_MESSAGES.signatureInvalid,
    );
  }
}
