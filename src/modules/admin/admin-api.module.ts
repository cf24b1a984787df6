import { Module } from '@nestjs/common';
import { QuotesModule } from '../quotes/quotes.module';
import { ResultsModule } from '../results/results.module';
import { UsersModule } from '../users/users.module';
import { AdminRequestsService } from './admin-requests.service';
import { AdminResultsController } from './admin-results.controller';
import { AdminController } from './admin.controller';
import { AdminModule } from './admin.module';

/**
 * The `/admin/*` routes: AdminService (shared with the CLI) plus the actions that need other features (reports and
 * mails; the result review queue of the results feature).
 */
@Module({
  imports: [AdminModule, QuotesModule, UsersModule, ResultsModule],
  controllers: [AdminController, AdminResultsController],
  providers: [AdminRequestsService],
})
export class AdminApiModule {}
