import { CompiledResponse } from '../../common/http/compiled-response.decorator';
import {
  Body,
  Controller,
  Delete,
  Get,
  Param,
  Patch,
  Post,
  Query,
  Req,
  createParamDecorator,
} from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  AcceptsApeKey,
  Account,
  Auth,
  RateLimit,
  RequireConfiguration,
  RequireFreshToken,
} from '../../common/auth/policy.decorators';
import { AppError, MESSAGES } from '../../common/app-error';
import { ok } from '../../common/http/envelope';
import { labelOutcome } from '../../common/http/submission-outcome';
import type { AuthContext, CallerAccount } from '../../common/http/request-context';
import { GetResultsQueryDto } from './dto/get-results-query.dto';
import { ResultIdParamDto } from './dto/result-id-param.dto';
import { SubmitResultDto } from './dto/submit-result.dto';
import { SubmitResultPipe } from './dto/submit-result.pipe';
import { UpdateResultTagsDto } from './dto/update-result-tags.dto';
import { ResultsReadService } from './results-read.service';
import { ResultsSubmitService } from './results-submit.service';
import { ResultsTagsService } from './results-tags.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';
import { XP_MESSAGES } from '../xp/xp.service';
import { RESULT_MESSAGES } from './domain/judge';

/** The `result` object exactly as received (the hash covers it as the client sent it, not the parsed DTO). */
const ReceivedResult = createParamDecorator((_: unknown, ctx: ExecutionContext): Record<string, unknown> => {
  // A `null` or empty body reaches here before the pipe refuses it (422), so it must not be dereferenced blindly.
  const body = ctx.switchToHttp().getRequest<FastifyRequest>().body as
    { result?: Record<string, unknown> } | null | undefined;
  return body?.result ?? {};
});

const ClientVersion = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined => {
  const headers = ctx.switchToHttp().getRequest<FastifyRequest>().headers;
  const value = headers['x-client-version'] ?? headers['client-version'];
  return typeof value === 'string' ? value : undefined;
});

function caller(account: CallerAccount | undefined): CallerAccount {
  // The guard loads the account on every signed-in route; its absence would be a wiring fault.
  if (!account) throw new AppError(404, MESSAGES.userNotFound);
  return account;
}

@ApiTags('results')
@Controller()
export class ResultsController {
  constructor(
    private readonly submitService: ResultsSubmitService,
    private readonly readService: ResultsReadService,
    private readonly tagsService: ResultsTagsService,
  ) {}

  /** Submits a completed test (the CompletedEvent); answers the XP earned, streak and leaderboard ranks. */
  @Post('results')
  // The body parameter is typed as an object literal (see below), so the document is told the DTO here.
  @ApiBody({ type: SubmitResultDto })
  @RateLimit('resultsAdd')
  @RequireConfiguration('results.savingEnabled', 'Results are not being saved at this time.')
  @ApiFailure(
    400,
    RESULT_MESSAGES.accuracyTooLow,
    RESULT_MESSAGES.duplicateFunboxes,
    RESULT_MESSAGES.impossibleFunboxes,
  )
  @ApiFailure(460, RESULT_MESSAGES.tooShort)
  @ApiFailure(461, RESULT_MESSAGES.hashMismatch)
  @ApiFailure(462, RESULT_MESSAGES.spacing)
  @ApiFailure(463, RESULT_MESSAGES.senseless)
  @ApiFailure(464, RESULT_MESSAGES.missingKeyData)
  @ApiFailure(465, RESULT_MESSAGES.bot)
  @ApiFailure(466, RESULT_MESSAGES.duplicate)
  // A broken XP configuration (e.g. a negative multiplier) fails the submission rather than corrupt totals.
  @ApiFailure(500, XP_MESSAGES.nan, XP_MESSAGES.negative)
  @CompiledResponse()
  async submit(
    @Auth() auth: AuthContext,
    // An object type is emitted as `Object` in the parameter metadata, so the global pipe passes the body on to
    // SubmitResultPipe untouched. (A type-only import of the DTO class is emitted as `Function` by tsc, not by swc:
    // the global pipe then refused every submission of the production build while the tests passed.)
    @Body(SubmitResultPipe) body: { result: SubmitResultDto['result'] },
    @ReceivedResult() received: Record<string, unknown>,
    @ClientVersion() clientVersion: string | undefined,
    @Req() request: FastifyRequest,
  ) {
    return ok(
      'Result saved',
      await this.submitService.submit({
        uid: auth.uid,
        result: body.result,
        received,
        clientVersion,
        outcome: (outcome) => labelOutcome(request, outcome),
      }),
    );
  }

  @Get('results')
  @AcceptsApeKey()
  @RateLimit('resultsGet', 'resultsGetApe')
  @ApiFailure(422, 'Max results limit of <maxLimit> exceeded.')
  @CompiledResponse()
  async list(@Account() account: CallerAccount | undefined, @Query() query: GetResultsQueryDto) {
    return ok('Results retrieved', await this.readService.list(caller(account), query));
  }

  /** Spec results rule 5: the same list under /users. */
  @Get('users/results')
  @AcceptsApeKey()
  @RateLimit('resultsGet', 'resultsGetApe')
  @ApiFailure(422, 'Max results limit of <maxLimit> exceeded.')
  @CompiledResponse()
  async listUnderUsers(@Account() account: CallerAccount | undefined, @Query() query: GetResultsQueryDto) {
    return this.list(account, query);
  }

  /** The caller's newest result, in full. */
  @Get('results/last')
  @AcceptsApeKey()
  @RateLimit('resultsGet')
  @ApiFailure(404, 'No last result found')
  @CompiledResponse()
  async last(@Auth() auth: AuthContext) {
    return ok('Result retrieved', await this.readService.last(auth.uid));
  }

  /** Replaces a result's tags (tags the caller owns only) and re-evaluates the tags' personal bests. */
  @Patch('results/tags')
  @RateLimit('resultsTagsUpdate')
  @ApiFailure(404, 'Result not found')
  @ApiFailure(422, "One of the tag id's is not valid")
  async updateTags(@Auth() auth: AuthContext, @Body() body: UpdateResultTagsDto) {
    return ok('Result tags updated', await this.tagsService.updateTags(auth.uid, body.resultId, body.tagIds));
  }

  @Get('results/id/:resultId')
  @AcceptsApeKey()
  @RateLimit('resultByIdGet', 'resultByIdGetApe')
  @ApiFailure(404, 'Result not found')
  @CompiledResponse()
  async getOne(@Auth() auth: AuthContext, @Param() params: ResultIdParamDto) {
    return ok('Result retrieved', await this.readService.get(auth.uid, params.resultId));
  }

  @Delete('results')
  @RequireFreshToken()
  @RateLimit('resultsDeleteAll')
  async deleteAll(@Auth() auth: AuthContext) {
    await this.readService.deleteAll(auth.uid);
    return ok('All results deleted');
  }
}
