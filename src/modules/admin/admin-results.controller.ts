import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  Auth,
  NoTokenCache,
  RateLimit,
  RequireConfiguration,
  RequirePermission,
} from '../../common/auth/policy.decorators';
import { ApiFailure } from '../../common/http/api-failure.decorator';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { SubmissionOutcomesService } from '../results/outcomes/submission-outcomes.service';
import { HELD_NOT_FOUND, ResultReviewService } from '../results/review/result-review.service';
import { ADMIN_DISABLED } from './admin-messages';
import { AcceptResultsDto, HeldResultsQueryDto, RejectResultsDto } from './dto/admin-results.dto';

/**
 * The result review queue (docs/decisions/0017-review-queue.md), named after the original's report routes
 * (`/admin/report/accept|reject`): results above their mode's plausibility ceiling wait here, saved but off every
 * board, for a moderator with the admin permission. Same policy as every `/admin/*` route.
 */
@ApiTags('admin')
@Controller('admin')
@RequireConfiguration('admin.endpointsEnabled', ADMIN_DISABLED)
@RequirePermission('admin')
@NoTokenCache()
@RateLimit('adminLimit')
export class AdminResultsController {
  constructor(
    private readonly reviews: ResultReviewService,
    private readonly outcomes: SubmissionOutcomesService,
  ) {}

  /**
   * What an admin watches for false positives: per check, the results refused and held over the last hour and the
   * last 24 hours, across replicas, and the refusal rate (refused per submission judged). 503 while Redis, which
   * counts them, is unreachable.
   */
  @Get('result/rates')
  async rates() {
    return ok('Result check rates retrieved', await this.outcomes.rates());
  }

  /** Held results, oldest first: why each was held, its figures and a summary of its key timing; `count` in all. */
  @Get('result/held')
  async listHeld(@Query() query: HeldResultsQueryDto) {
    return ok('Held results retrieved', await this.reviews.listHeld(query.limit, query.offset));
  }

  /** Approves held results: each enters the boards (all-time at the next live update, daily and weekly now). */
  @Post('result/accept')
  @ApiFailure(404, `${HELD_NOT_FOUND} <resultId,...>`)
  async accept(@Auth() auth: AuthContext, @Body() body: AcceptResultsDto) {
    await this.reviews.approve(auth.uid, body.results);
    return ok('Held results approved');
  }

  /** Rejects held results: each stays saved, marked, and never reaches a board. */
  @Post('result/reject')
  @ApiFailure(404, `${HELD_NOT_FOUND} <resultId,...>`)
  async reject(@Auth() auth: AuthContext, @Body() body: RejectResultsDto) {
    await this.reviews.reject(auth.uid, body.results);
    return ok('Held results rejected');
  }
}
