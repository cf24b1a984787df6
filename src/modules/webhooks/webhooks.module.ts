import { Module } from '@nestjs/common';
import { GithubSignatureGuard } from './github-signature.guard';
import { ReleaseJobsRepository } from './release-jobs.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  controllers: [WebhooksController],
  providers: [GithubSignatureGuard, ReleaseJobsRepository, WebhooksService],
  exports: [WebhooksService],
})
export class WebhooksModule {}
