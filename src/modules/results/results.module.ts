import { Module } from '@nestjs/common';
import { InboxModule } from '../inbox/inbox.module';
import { XpModule } from '../xp/xp.module';
import { AntiCheatRegistry } from './anti-cheat';
import { ResultChecks } from './result-checks';
import { ResultHooks } from './result-hooks';
import { ResultsController } from './results.controller';
import { ResultsReadService } from './results-read.service';
import { ResultsRepository } from './results.repository';
import { ResultsSubmitService } from './results-submit.service';
import { ResultTagsRepository } from './result-tags.repository';
import { ResultsTagsService } from './results-tags.service';
import { ResultReviewService } from './review/result-review.service';
import { ResultReviewsRepository } from './review/result-reviews.repository';
import { SubmissionRepository } from './submission.repository';

/**
 * Result submission and history. Exports the post-commit hook list (leaderboards register there), the anti-cheat
 * registry (a private anti-cheat module plugs in there) and the review queue's decisions (admin routes, CLI).
 */
@Module({
  imports: [XpModule, InboxModule],
  controllers: [ResultsController],
  providers: [
    ResultsRepository,
    SubmissionRepository,
    ResultChecks,
    ResultsSubmitService,
    ResultsReadService,
    ResultTagsRepository,
    ResultsTagsService,
    AntiCheatRegistry,
    ResultHooks,
    ResultReviewsRepository,
    ResultReviewService,
  ],
  exports: [ResultsSubmitService, ResultsReadService, ResultHooks, AntiCheatRegistry, ResultReviewService],
})
export class ResultsModule {}
