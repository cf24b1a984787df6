import { Body, Controller, Delete, Get, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { PartialConfigDto, toConfigPatch } from './config-schema';
import { ConfigsService } from './configs.service';

@ApiTags('configs')
@Controller('configs')
export class ConfigsController {
  constructor(private readonly configs: ConfigsService) {}

  /** The caller's configuration: every key, defaults where nothing was saved. */
  @Get()
  @RateLimit('configGet')
  async get(@Auth() auth: AuthContext) {
    return ok('Configuration retrieved', await this.configs.get(auth.uid));
  }

  /** Partial update: only the given keys change. */
  @Patch()
  @RateLimit('configUpdate')
  async update(@Auth() auth: AuthContext, @Body() body: PartialConfigDto) {
    await this.configs.update(auth.uid, toConfigPatch(body));
    return ok('Config updated');
  }

  /** Forgets the saved configuration; the next read answers the defaults. */
  @Delete()
  @RateLimit('configDelete')
  async delete(@Auth() auth: AuthContext) {
    await this.configs.delete(auth.uid);
    return ok('Config deleted');
  }
}
