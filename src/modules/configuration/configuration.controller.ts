import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import {
  DevPublic,
  NoTokenCache,
  Public,
  RateLimit,
  RequireConfiguration,
  RequirePermission,
  SkipMaintenance,
} from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import { SERVER_CONFIGURATION_SCHEMA } from '../../config/server-configuration.schema';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { ADMIN_DISABLED } from '../admin/admin-messages';
import { formOf } from './configuration-form';
import { PatchConfigurationDto } from './dto/patch-configuration.dto';

@ApiTags('configuration')
@Controller('configuration')
@SkipMaintenance()
export class ConfigurationController {
  constructor(private readonly configuration: ServerConfigurationService) {}

  /** The whole server configuration document. */
  @Get()
  @Public()
  @RateLimit('configurationGet')
  async get() {
    return ok('Configuration retrieved', await this.configuration.get());
  }

  /** The form the configuration editor draws: every key with its type, label and bounds (admin). */
  @Get('schema')
  @DevPublic()
  @RequireConfiguration('admin.endpointsEnabled', ADMIN_DISABLED)
  @RequirePermission('admin')
  @RateLimit('adminLimit')
  schema() {
    return ok('Configuration schema retrieved', formOf(SERVER_CONFIGURATION_SCHEMA, 'Server Configuration'));
  }

  /** Merges a deep partial into the configuration (admin; no auth needed in dev mode). */
  @Patch()
  @DevPublic()
  @NoTokenCache()
  @RequirePermission('admin')
  @RateLimit('adminLimit')
  async patch(@Body() body: PatchConfigurationDto) {
    await this.configuration.patch(body.configuration);
    return ok('Configuration updated');
  }
}
