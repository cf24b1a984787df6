import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit, RequireConfiguration } from '../../../common/auth/policy.decorators';
import { ok } from '../../../common/http/envelope';
import type { AuthContext } from '../../../common/http/request-context';
import { ChatLinkDto } from '../dto/collections.dto';
import { ChatLinkService } from './chat-link.service';

const CHAT_OFF = 'Discord integration is not available at this time';

/** Chat-platform account link (the original platform's Discord texts). */
@ApiTags('users')
@Controller('users/chat')
export class UsersChatController {
  constructor(private readonly chat: ChatLinkService) {}

  @Get('oauth')
  @RequireConfiguration('users.discordIntegration.enabled', CHAT_OFF)
  @RateLimit('userChatLink')
  async oauth(@Auth() auth: AuthContext) {
    return ok('Discord oauth link generated', { url: await this.chat.oauthUrl(auth.uid) });
  }

  @Post('link')
  @RequireConfiguration('users.discordIntegration.enabled', CHAT_OFF)
  @RateLimit('userChatLink')
  async link(@Auth() auth: AuthContext, @Body() body: ChatLinkDto) {
    const { relinked, ...link } = await this.chat.link(
      auth.uid,
      body.tokenType,
      body.accessToken,
      body.state,
    );
    return ok(relinked ? 'Discord avatar updated' : 'Discord account linked', link);
  }

  /** Works with the integration switched off too, so people can always remove a link (as on the original). */
  @Post('unlink')
  @RateLimit('userChatUnlink')
  async unlink(@Auth() auth: AuthContext) {
    await this.chat.unlink(auth.uid);
    return ok('Discord account unlinked');
  }
}
