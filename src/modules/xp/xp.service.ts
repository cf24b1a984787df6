import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import { ServerConfigurationService } from '../../config/server-configuration.service';
import { calculateXp, type XpInput, type XpOutcome } from './xp-calculator';

/** XP for a result under the current server configuration (`users.xp.*`). */
@Injectable()
export class XpService {
  constructor(private readonly configuration: ServerConfigurationService) {}

  async forResult(input: XpInput): Promise<XpOutcome> {
    const outcome = calculateXp(input, (await this.configuration.get()).users.xp);
    // A broken configuration (e.g. a negative multiplier) must not corrupt XP totals: fail the submission instead.
    if (Number.isNaN(outcome.xp)) throw new AppError(500, 'Calculated XP is NaN', { input });
    if (outcome.xp < 0) throw new AppError(500, 'Calculated XP is negative', { input });
    return outcome;
  }
}
