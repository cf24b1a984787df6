import { Module } from '@nestjs/common';
import { QuotesModule } from '../quotes/quotes.module';
import { UsersModule } from '../users/users.module';
import { AdminRequestsService } from './admin-requests.service';
import { AdminController } from './admin.controller';
import { AdminModule } from './admin.module';

/** The `/admin/*` routes: AdminService (shared with the CLI) plus the actions that need other features. */
@Module({
  imports: [AdminModule, QuotesModule, UsersModule],
  controllers: [AdminController],
  providers: [AdminRequestsService],
})
export class AdminApiModule {}
