import { Module } from '@nestjs/common';
import { PsasModule } from '../psas/psas.module';
import { GithubSignatureGuard } from './github-signature.guard';
import { ReleaseJobsRepository } from './release-jobs.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

@Module({
  imports: [PsasModule],
  controllers: [WebhooksController],
  providers: [GithubSignatureGuard, ReleaseJobsRepository, WebhooksService],
  exports: [WebhooksService],
})
export class WebhooksModule {}
