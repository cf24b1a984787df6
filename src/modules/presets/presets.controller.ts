import { Body, Controller, Delete, Get, Param, Patch, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { CreatePresetDto, EditPresetDto, PresetIdParams } from './dto/preset.dto';
import { PRESET_MESSAGES, PresetsService } from './presets.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';

@ApiTags('presets')
@Controller('presets')
export class PresetsController {
  constructor(private readonly presets: PresetsService) {}

  @Get()
  @RateLimit('presetsGet')
  async list(@Auth() auth: AuthContext) {
    return ok('Presets retrieved', await this.presets.list(auth.uid));
  }

  @Post()
  @RateLimit('presetsAdd')
  @ApiFailure(409, PRESET_MESSAGES.tooMany)
  async add(@Auth() auth: AuthContext, @Body() body: CreatePresetDto) {
    return ok('Preset created', await this.presets.add(auth.uid, body));
  }

  @Patch()
  @RateLimit('presetsEdit')
  @ApiFailure(404, PRESET_MESSAGES.notFound)
  async edit(@Auth() auth: AuthContext, @Body() body: EditPresetDto) {
    await this.presets.edit(auth.uid, body);
    return ok('Preset updated');
  }

  @Delete(':presetId')
  @RateLimit('presetsRemove')
  @ApiFailure(404, PRESET_MESSAGES.notFound)
  async remove(@Auth() auth: AuthContext, @Param() params: PresetIdParams) {
    await this.presets.remove(auth.uid, params.presetId);
    return ok('Preset deleted');
  }
}
