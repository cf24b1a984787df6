import { Body, Controller, Headers, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MESSAGES } from '../../common/app-error';
import { RateLimit, SelfAuthenticated } from '../../common/auth/policy.decorators';
import { ApiFailure } from '../../common/http/api-failure.decorator';
import { ok } from '../../common/http/envelope';
import { GithubSignatureGuard, WEBHOOK_MESSAGES } from './github-signature.guard';
import { RELEASE_ID_MISSING, WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Signed by GitHub (`X-Hub-Signature-256`); the body is GitHub's release event, read loosely. */
  @Post('githubRelease')
  @SelfAuthenticated()
  @RateLimit('webhookGithubRelease')
  @UseGuards(GithubSignatureGuard)
  @ApiFailure(401, WEBHOOK_MESSAGES.signatureMissing, WEBHOOK_MESSAGES.signatureInvalid)
  @ApiFailure(422, MESSAGES.invalidBody, RELEASE_ID_MISSING)
  @ApiFailure(500, WEBHOOK_MESSAGES.secretMissing)
  async githubRelease(
    @Body() payload: unknown,
    @Headers('x-github-delivery') deliveryId: string | undefined,
  ) {
    const delivery = typeof deliveryId === 'string' && deliveryId !== '' ? deliveryId.slice(0, 100) : null;
    return ok(await this.webhooks.githubRelease(payload, delivery));
  }
}
