import { Module } from '@nestjs/common';
import { InboxModule } from '../inbox/inbox.module';
import { XpModule } from '../xp/xp.module';
import { AntiCheatRegistry } from './anti-cheat';
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
import { SubmissionTransaction } from './submission-transaction';
import { SubmissionOutcomesService } from './outcomes/submission-outcomes.service';
import { QuarantineService } from './quarantine/quarantine.service';
import { RefusedResultsRepository } from './quarantine/refused-results.repository';

/**
 * Result submission and history. Exports the post-commit hook list (leaderboards register there), the anti-cheat
 * registry (a private anti-cheat module plugs in there), the review queue's decisions and the quarantine of refused
 * results with the refusal rates (admin routes, CLI, the account's export).
 */
@Module({
  imports: [XpModule, InboxModule],
  controllers: [ResultsController],
  providers: [
    ResultsRepository,
    SubmissionRepository,
    SubmissionTransaction,
    ResultsSubmitService,
    SubmissionOutcomesService,
    RefusedResultsRepository,
    QuarantineService,
    ResultsReadService,
    ResultTagsRepository,
    ResultsTagsService,
    AntiCheatRegistry,
    ResultHooks,
    ResultReviewsRepository,
    ResultReviewService,
  ],
  exports: [
    ResultsSubmitService,
    ResultsReadService,
    ResultHooks,
    AntiCheatRegistry,
    ResultReviewService,
    QuarantineService,
    SubmissionOutcomesService,
  ],
})
export class ResultsModule {}
