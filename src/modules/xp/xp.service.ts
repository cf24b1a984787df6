import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/app-error';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import { calculateXp, type XpInput, type XpOutcome } from './xp-calculator';

export const XP_MESSAGES = { nan: 'Calculated XP is NaN', negative: 'Calculated XP is negative' } as const;

/** XP for a result under the server configuration's `users.xp`. */
@Injectable()
export class XpService {
  /**
   * The caller passes the configuration it read: the submission calls this inside its transaction, where reading the
   * configuration could wait for a pool connection that only the open transactions can free.
   */
  forResult(input: XpInput, settings: ServerConfiguration['users']['xp']): XpOutcome {
    const outcome = calculateXp(input, settings);
    // A broken configuration (e.g. a negative multiplier) must not corrupt XP totals: fail the submission instead.
    if (Number.isNaN(outcome.xp)) throw new AppError(500, XP_MESSAGES.nan, { input });
    if (outcome.xp < 0) throw new AppError(500, XP_MESSAGES.negative, { input });
    return outcome;
  }
}
