import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  Auth,
  RateLimit,
  RequireConfiguration,
  RequirePermission,
} from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { ApeKeysService } from './ape-keys.service';
import { APE_KEY_MESSAGES } from './ape-keys.types';
import { ApeKeyIdParams, CreateApeKeyDto, UpdateApeKeyDto } from './dto/ape-key.dto';
import { ApiFailure } from '../../common/http/api-failure.decorator';

/** Bearer only: a key can never manage keys. */
@ApiTags('ape-keys')
@Controller('ape-keys')
@RequireConfiguration('apeKeys.endpointsEnabled', APE_KEY_MESSAGES.disabled)
@RequirePermission('canManageApeKeys')
export class ApeKeysController {
  constructor(private readonly apeKeys: ApeKeysService) {}

  /** The caller's keys, by id; never a secret or hash. */
  @Get()
  @RateLimit('apeKeysGet')
  async list(@Auth() auth: AuthContext) {
    return ok('ApeKeys retrieved', await this.apeKeys.list(auth.uid));
  }

  /** A new key; `apeKey` is shown in this answer only. */
  @Post()
  @RateLimit('apeKeysGenerate')
  @ApiFailure(409, APE_KEY_MESSAGES.tooMany)
  async generate(@Auth() auth: AuthContext, @Body() body: CreateApeKeyDto) {
    return ok('Ape Key generated', await this.apeKeys.generate(auth.uid, body.name, body.enabled));
  }

  /** Renames, enables or disables a key. */
  @Patch(':apeKeyId')
  @RateLimit('apeKeysGenerate')
  @ApiFailure(404, APE_KEY_MESSAGES.notFound)
  async update(@Auth() auth: AuthContext, @Param() params: ApeKeyIdParams, @Body() body: UpdateApeKeyDto) {
    await this.apeKeys.update(auth.uid, params.apeKeyId, { name: body.name, enabled: body.enabled });
    return ok('ApeKey updated');
  }

  @Delete(':apeKeyId')
  @RateLimit('apeKeysGenerate')
  @ApiFailure(404, APE_KEY_MESSAGES.notFound)
  async remove(@Auth() auth: AuthContext, @Param() params: ApeKeyIdParams) {
    await this.apeKeys.remove(auth.uid, params.apeKeyId);
    return ok('ApeKey deleted');
  }
}
