import { Body, Controller, Get, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Auth, RateLimit, RequireConfiguration } from '../../../common/auth/policy.decorators';
import { ok } from '../../../common/http/envelope';
import type { AuthContext } from '../../../common/http/request-context';
import { ChatLinkDto } from '../dto/collections.dto';
import { ChatLinkService, type ChatLink } from './chat-link.service';
import { ApiFailure } from '../../../common/http/api-failure.decorator';

const CHAT_OFF = 'Discord integration is not available at this time';

/**
 * The original platform's paths are `/users/discord/*` (docs/decisions/0039-original-routes-and-aliases.md). Its
 * client reads `discordId` and `discordAvatar` where the spec says `chatId` and `chatAvatar`, so the answer uses the
 * names of the path called.
 */
function linkView(request: FastifyRequest, link: ChatLink) {
  return request.url.startsWith('/users/discord/')
    ? { discordId: link.chatId, discordAvatar: link.chatAvatar }
    : { chatId: link.chatId, chatAvatar: link.chatAvatar };
}

/** Chat-platform account link (the original platform's Discord texts). */
@ApiTags('users')
@Controller('users')
export class UsersChatController {
  constructor(private readonly chat: ChatLinkService) {}

  @Get(['chat/oauth', 'discord/oauth'])
  @RequireConfiguration('users.discordIntegration.enabled', CHAT_OFF)
  @RateLimit('userChatLink')
  async oauth(@Auth() auth: AuthContext) {
    return ok('Discord oauth link generated', { url: await this.chat.oauthUrl(auth.uid) });
  }

  @Post(['chat/link', 'discord/link'])
  @RequireConfiguration('users.discordIntegration.enabled', CHAT_OFF)
  @RateLimit('userChatLink')
  @ApiFailure(403, 'Invalid user token', 'Banned accounts cannot link with Discord')
  @ApiFailure(409, 'This Discord account is linked to a different account', 'The Discord account is blocked')
  @ApiFailure(500, 'Could not get Discord account info')
  async link(@Auth() auth: AuthContext, @Body() body: ChatLinkDto, @Req() request: FastifyRequest) {
    const { relinked, ...link } = await this.chat.link(
      auth.uid,
      body.tokenType,
      body.accessToken,
      body.state,
    );
    return ok(relinked ? 'Discord avatar updated' : 'Discord account linked', linkView(request, link));
  }

  /** Works with the integration switched off too, so people can always remove a link (as on the original). */
  @Post(['chat/unlink', 'discord/unlink'])
  @RateLimit('userChatUnlink')
  @ApiFailure(403, 'Banned accounts cannot unlink Discord')
  @ApiFailure(404, 'User does not have a linked Discord account')
  async unlink(@Auth() auth: AuthContext) {
    await this.chat.unlink(auth.uid);
    return ok('Discord account unlinked');
  }
}
