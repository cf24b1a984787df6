import { Body, Controller, Headers, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { RateLimit, SelfAuthenticated } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import { GithubSignatureGuard } from './github-signature.guard';
import { WebhooksService } from './webhooks.service';

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  /** Signed by GitHub (`X-Hub-Signature-256`); the body is GitHub's release event, read loosely. */
  @Post('githubRelease')
  @SelfAuthenticated()
  @RateLimit('webhookGithubRelease')
  @UseGuards(GithubSignatureGuard)
  async githubRelease(
    @Body() payload: unknown,
    @Headers('x-github-delivery') deliveryId: string | undefined,
  ) {
    const delivery = typeof deliveryId === 'string' && deliveryId !== '' ? deliveryId.slice(0, 100) : null;
    return ok(await this.webhooks.githubRelease(payload, delivery));
  }
}
