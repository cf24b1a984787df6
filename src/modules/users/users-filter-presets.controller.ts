import { Body, Controller, Delete, Param, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit, RequireConfiguration } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { ResultFilterPresetParamDto, ResultFiltersDto } from './dto/result-filters.dto';
import { ResultFilterPresetsService } from './result-filter-presets.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';

const FILTER_PRESETS_OFF = 'Result filter presets are not available at this time.';

/** Saved result filters of the original web client (contract facts U13/U14); listed in `GET /users`. */
@ApiTags('users')
@Controller('users/resultFilterPresets')
@RequireConfiguration('results.filterPresets.enabled', FILTER_PRESETS_OFF)
export class UsersFilterPresetsController {
  constructor(private readonly presets: ResultFilterPresetsService) {}

  @Post()
  @RateLimit('userCustomFilterAdd')
  @ApiFailure(409, 'Maximum number of custom filters reached')
  async add(@Auth() auth: AuthContext, @Body() body: ResultFiltersDto) {
    return ok('Result filter preset created', await this.presets.add(auth.uid, body));
  }

  @Delete(':presetId')
  @RateLimit('userCustomFilterRemove')
  @ApiFailure(404, 'Custom filter not found')
  async delete(@Auth() auth: AuthContext, @Param() params: ResultFilterPresetParamDto) {
    await this.presets.delete(auth.uid, params.presetId);
    return ok('Result filter preset deleted');
  }
}
