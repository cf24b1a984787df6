import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { AppError } from '../../common/app-error';
import { Clock } from '../../common/clock';
import type { CallerAccount } from '../../common/http/request-context';
import { hasPremium } from '../../common/premium';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { effectiveResultLimit, maxResultLimit } from './domain/result-limit';
import { toApiResult, type ApiResult } from './domain/result-view';
import type { GetResultsQueryDto } from './dto/get-results-query.dto';
import { ResultsRepository } from './results.repository';

/** Result history: newest-first pages within the user's result limit, single results, and deleting them all. */
@Injectable()
export class ResultsReadService implements OnModuleInit {
  private readonly logger = new Logger(ResultsReadService.name);

  constructor(
    private readonly repository: ResultsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly lifecycle: AccountLifecycle,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // Domain facts §5.10: an account reset deletes the user's results.
    this.lifecycle.onReset('results', async (uid, trx) => {
      await this.repository.deleteAll(uid, trx);
    });
  }

  async list(account: CallerAccount, query: GetResultsQueryDto): Promise<ApiResult[]> {
    const { results, users } = await this.configuration.get();
    const isPremium = users.premium.enabled && hasPremium(account.premiumExpiresAt, this.clock.now());
    const maxLimit = maxResultLimit(results.limits, users.premium.enabled, isPremium);
    const limit = effectiveResultLimit({
      limit: query.limit,
      offset: query.offset,
      maxLimit,
      maxBatchSize: results.maxBatchSize,
    });
    this.logger.log(
      {
        uid: account.uid,
        limit: limit.ok ? limit.limit : query.limit,
        offset: query.offset,
        onOrAfterTimestamp: query.onOrAfterTimestamp,
        isPremium,
      },
      'results requested',
    );
    if (!limit.ok) throw new AppError(422, `Max results limit of ${limit.maxLimit} exceeded.`);
    const records = await this.repository.list(account.uid, {
      limit: limit.limit,
      offset: query.offset,
      onOrAfterTimestamp: query.onOrAfterTimestamp,
    });
    return records.map(toApiResult);
  }

  async get(uid: string, resultId: string): Promise<ApiResult> {
    const record = await this.repository.findOne(uid, resultId);
    if (!record) throw new AppError(404, 'Result not found');
    return toApiResult(record);
  }

  async last(uid: string): Promise<ApiResult> {
    const record = await this.repository.findLast(uid);
    if (!record) throw new AppError(404, 'No last result found');
    return toApiResult(record);
  }

  /** Personal bests, typing stats, streak and XP stay, as on the original platform; only the history goes. */
  async deleteAll(uid: string): Promise<void> {
    const deleted = await this.repository.deleteAll(uid);
    this.logger.log({ uid, deleted }, 'user results deleted');
  }
}
