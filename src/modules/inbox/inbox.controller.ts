import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit, RequireConfiguration } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { UpdateInboxDto } from './dto/update-inbox.dto';
import { InboxService } from './inbox.service';

const INBOX_OFF = 'Your inbox is not available at this time.';

@ApiTags('users')
@Controller('users/inbox')
@RequireConfiguration('users.inbox.enabled', INBOX_OFF)
export class InboxController {
  constructor(private readonly inbox: InboxService) {}

  /** The caller's mail, newest first, and the inbox capacity. */
  @Get()
  @RateLimit('userMailGet')
  async list(@Auth() auth: AuthContext) {
    return ok('Inbox retrieved', await this.inbox.list(auth.uid));
  }

  /** Marks mail read and deletes mail; rewards of unread mail are claimed once. */
  @Patch()
  @RateLimit('userMailUpdate')
  async update(@Auth() auth: AuthContext, @Body() body: UpdateInboxDto) {
    await this.inbox.update(auth.uid, body.mailIdsToMarkRead, body.mailIdsToDelete);
    return ok('Inbox updated');
  }
}
