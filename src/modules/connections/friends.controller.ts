import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit, RequireConfiguration } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { CONNECTION_MESSAGES } from './connection-rules';
import { FriendsService } from './friends.service';

@ApiTags('users')
@Controller('users/friends')
@RequireConfiguration('connections.enabled', CONNECTION_MESSAGES.disabled)
export class FriendsController {
  constructor(private readonly friends: FriendsService) {}

  /** Profiles of the caller's accepted connections, then the caller. */
  @Get()
  @RateLimit('userFriendGet')
  async list(@Auth() auth: AuthContext) {
    return ok('Friends retrieved', await this.friends.list(auth.uid));
  }
}
