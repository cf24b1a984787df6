import { Module } from '@nestjs/common';
import { InboxModule } from '../inbox/inbox.module';
import { QuoteRatingsController } from './quote-ratings.controller';
import { QuoteRatingsRepository } from './quote-ratings.repository';
import { QuoteRatingsService } from './quote-ratings.service';
import { QuoteReportsRepository } from './quote-reports.repository';
import { QuoteReportsService } from './quote-reports.service';
import { QuotesController } from './quotes.controller';
import { QuotesRepository } from './quotes.repository';
import { QuotesService } from './quotes.service';

@Module({
  imports: [InboxModule],
  controllers: [QuotesController, QuoteRatingsController],
  providers: [
    QuotesRepository,
    QuotesService,
    QuoteReportsRepository,
    QuoteReportsService,
    QuoteRatingsRepository,
    QuoteRatingsService,
  ],
  exports: [QuotesService, QuoteReportsService],
})
export class QuotesModule {}
