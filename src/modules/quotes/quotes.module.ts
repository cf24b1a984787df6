import { Module } from '@nestjs/common';
import { QuoteReportsRepository } from './quote-reports.repository';
import { QuoteReportsService } from './quote-reports.service';
import { QuotesController } from './quotes.controller';
import { QuotesRepository } from './quotes.repository';
import { QuotesService } from './quotes.service';

@Module({
  controllers: [QuotesController],
  providers: [QuotesRepository, QuotesService, QuoteReportsRepository, QuoteReportsService],
  exports: [QuotesService, QuoteReportsService],
})
export class QuotesModule {}
