import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public, RateLimit, SkipMaintenance } from '../../../common/auth/policy.decorators';
import { ApiFailure } from '../../../common/http/api-failure.decorator';
import { ok } from '../../../common/http/envelope';
import {
  AccountFileSigningService,
  IDENTITY_UNAVAILABLE,
  type InstanceIdentity,
} from './account-file-signing.service';

/**
 * The key this instance signs account files with, and its instance id: what another instance's operator trusts
 * (`npm run cli -- instances trust <publicKey> --instance <instanceId>`). Public: it is a public key. Beside
 * `GET /configuration` (whose document stays the original platform's), as a route of its own.
 */
@ApiTags('configuration')
@Controller('configuration')
@SkipMaintenance()
export class InstanceKeyController {
  constructor(private readonly signing: AccountFileSigningService) {}

  /** This instance's id and the public key of its account file signatures (docs/account-files.md). */
  @Get('instance')
  @Public()
  @RateLimit('instanceKey')
  @ApiFailure(503, IDENTITY_UNAVAILABLE)
  async instance() {
    const { instanceId, algorithm, publicKey, fingerprint }: InstanceIdentity = await this.signing.identity();
    return ok('Instance key retrieved', { instanceId, algorithm, publicKey, fingerprint });
  }
}
