import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth, RateLimit } from '../../common/auth/policy.decorators';
import { ok } from '../../common/http/envelope';
import type { AuthContext } from '../../common/http/request-context';
import { QuoteRatingQueryDto, SubmitQuoteRatingDto } from './dto';
import { QuoteRatingsService } from './quote-ratings.service';

@ApiTags('quotes')
@Controller('quotes/rating')
export class QuoteRatingsController {
  constructor(private readonly ratings: QuoteRatingsService) {}

  /** A quote's rating aggregate, or null when nobody rated it. */
  @Get()
  @RateLimit('quoteRatingsGet')
  async get(@Query() query: QuoteRatingQueryDto) {
    return ok('Rating retrieved', await this.ratings.get(query.language, query.quoteId));
  }

  /** Rates a quote 1-5; rating it again replaces the caller's earlier rating. */
  @Post()
  @RateLimit('quoteRatingsSubmit')
  async rate(@Auth() auth: AuthContext, @Body() body: SubmitQuoteRatingDto) {
    return ok(await this.ratings.rate(auth.uid, body));
  }
}
