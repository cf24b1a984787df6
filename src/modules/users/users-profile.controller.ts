import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { MESSAGES } from '../../common/app-error';
import { Auth, Public, RateLimit, RequireConfiguration } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { ProfileParamDto, ProfileQueryDto, UpdateProfileDto } from './dto/profile.dto';
import { ProfileService } from './profile.service';
import { ApiFailure } from '../../common/http/api-failure.decorator';
import { CompiledResponse } from '../../common/http/compiled-response.decorator';

const PROFILES_OFF = 'Profiles are not available at this time';

@ApiTags('users')
@Controller('users')
@RequireConfiguration('users.profiles.enabled', PROFILES_OFF)
export class UsersProfileController {
  constructor(private readonly profiles: ProfileService) {}

  /** A public profile by name (case-insensitive) or, with `isUid`, by uid. */
  @Get(':uidOrName/profile')
  @Public()
  @RateLimit('userProfileGet')
  @ApiFailure(404, MESSAGES.userNotFound)
  @CompiledResponse()
  async get(@Param() params: ProfileParamDto, @Query() query: ProfileQueryDto) {
    return this.profile(params.uidOrName, query.isUid ?? false);
  }

  /** Same as `/users/{uidOrName}/profile`. */
  @Get('profile/:uidOrName')
  @Public()
  @RateLimit('userProfileGet')
  @ApiFailure(404, MESSAGES.userNotFound)
  @CompiledResponse()
  async getAlias(@Param() params: ProfileParamDto, @Query() query: ProfileQueryDto) {
    return this.profile(params.uidOrName, query.isUid ?? false);
  }

  @Patch('profile')
  @RateLimit('userProfileUpdate')
  @ApiFailure(403, 'Banned users cannot update their profile')
  @ApiFailure(404, 'Badge not found')
  async update(@Auth() auth: AuthContext, @Body() body: UpdateProfileDto) {
    return ok('Profile updated', await this.profiles.updateProfile(auth.uid, body));
  }

  private async profile(uidOrName: string, isUid: boolean) {
    const { banned, profile } = await this.profiles.getProfile(uidOrName, isUid);
    // The original platform's text, typo included; its clients may compare it.
    return ok(banned ? 'Profile retrived: banned user' : 'Profile retrieved', profile);
  }
}
