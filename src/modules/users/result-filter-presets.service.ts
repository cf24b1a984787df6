import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { ResultFiltersDto } from './dto/result-filters.dto';
import { ResultFilterPresetsRepository } from './result-filter-presets.repository';
import { UsersRepository } from './users.repository';

/** Saved result filters (contract facts U13/U14; the spec does not list them). */
@Injectable()
export class ResultFilterPresetsService {
  private readonly logger = new Logger(ResultFilterPresetsService.name);

  constructor(
    private readonly presets: ResultFilterPresetsRepository,
    private readonly users: UsersRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  list(uid: string) {
    return this.presets.list(uid);
  }

  /** Returns the new id (a string, as the original answers). The client's `_id` is replaced. */
  async add(uid: string, body: ResultFiltersDto): Promise<string> {
    const { maxPresetsPerUser } = (await this.configuration.get()).results.filterPresets;
    const { _id: _clientId, name, ...filters } = body;
    const id = newId();
    await this.users.inTransaction(async (trx) => {
      // The user row lock serialises concurrent adds of one user, so the cap holds.
      if (!(await this.users.lock(uid, trx))) throw new AppError(404, MESSAGES.userNotFound);
      if ((await this.presets.count(uid, trx)) >= maxPresetsPerUser) {
        throw new AppError(409, 'Maximum number of custom filters reached');
      }
      await this.presets.insert(uid, { id, name, filters: { ...filters } }, this.clock.now(), trx);
    });
    this.logger.log({ uid, presetId: id }, 'result filter preset created');
    return id;
  }

  async delete(uid: string, id: string): Promise<void> {
    if (!(await this.presets.delete(uid, id))) throw new AppError(404, 'Custom filter not found');
  }
}
