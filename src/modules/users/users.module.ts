import { Module } from '@nestjs/common';
import { APP_ENV, type AppEnv } from '../../config/env';
import { InboxModule } from '../inbox/inbox.module';
import { QuotesModule } from '../quotes/quotes.module';
import { LeaderboardModule } from '../leaderboards/leaderboards.module';
import { AccountManagementService } from './account-management.service';
import { ChatLinkService } from './chat/chat-link.service';
import {
  ChatPlatformClient,
  DevChatPlatformClient,
  HttpChatPlatformClient,
} from './chat/chat-platform-client';
import { ChatStateRepository } from './chat/chat-state.repository';
import { UsersChatController } from './chat/users-chat.controller';
import { CustomThemesRepository } from './custom-themes.repository';
import { CustomThemesService } from './custom-themes.service';
import { EmailSender, LoggingEmailSender, SmtpEmailSender } from './email/email-sender';
import { createEmailVerificationLinks, EmailVerificationLinks } from './email/email-verification-links';
import { EmailVerificationService } from './email-verification.service';
import { FavoriteQuotesService } from './favorite-quotes.service';
import { PasswordResetService } from './password-reset.service';
import { ProfileService } from './profile.service';
import { ResultFilterPresetsRepository } from './result-filter-presets.repository';
import { ResultFilterPresetsService } from './result-filter-presets.service';
import { TagsRepository } from './tags.repository';
import { TagsService } from './tags.service';
import { UserReportsService } from './user-reports.service';
import { UserStatsRepository } from './user-stats.repository';
import { UserStatsService } from './user-stats.service';
import { UsersAccountController } from './users-account.controller';
import { UsersCollectionsController } from './users-collections.controller';
import { UsersFilterPresetsController } from './users-filter-presets.controller';
import { UsersProfileController } from './users-profile.controller';
import { UsersRequestsController } from './users-requests.controller';
import { UsersStatsController } from './users-stats.controller';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UsersService } from './users.service';
import { BlocklistRepository } from './blocklist.repository';

/** Dev mode (or no relay configured) logs mail instead of sending it. */
export function createEmailSender(env: AppEnv): EmailSender {
  if (env.mode === 'dev' || !env.mail.smtpUrl) return new LoggingEmailSender(env.mode === 'dev');
  return new SmtpEmailSender(env.mail.smtpUrl, env.mail.from);
}

/** Dev mode without a client id has no platform to talk to: a made-up account per token. */
export function createChatPlatformClient(env: AppEnv): ChatPlatformClient {
  if (env.mode === 'dev' && !env.chat.clientId) return new DevChatPlatformClient(env.chat);
  return new HttpChatPlatformClient(env.chat);
}

@Module({
  imports: [InboxModule, LeaderboardModule, QuotesModule],
  controllers: [
    UsersController,
    UsersAccountController,
    UsersProfileController,
    UsersStatsController,
    UsersCollectionsController,
    UsersChatController,
    UsersFilterPresetsController,
    UsersRequestsController,
  ],
  providers: [
    UsersRepository,
    UserStatsRepository,
    TagsRepository,
    CustomThemesRepository,
    ChatStateRepository,
    ResultFilterPresetsRepository,
    BlocklistRepository,
    UsersService,
    AccountManagementService,
    ProfileService,
    UserStatsService,
    TagsService,
    CustomThemesService,
    FavoriteQuotesService,
    ChatLinkService,
    ResultFilterPresetsService,
    UserReportsService,
    EmailVerificationService,
    PasswordResetService,
    { provide: EmailVerificationLinks, inject: [APP_ENV], useFactory: createEmailVerificationLinks },
    { provide: EmailSender, inject: [APP_ENV], useFactory: createEmailSender },
    { provide: ChatPlatformClient, inject: [APP_ENV], useFactory: createChatPlatformClient },
  ],
  exports: [UsersService, EmailSender, PasswordResetService],
})
export class UsersModule {}
