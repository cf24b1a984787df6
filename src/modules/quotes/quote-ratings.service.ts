import { Injectable, Logger } from '@nestjs/common';
import { newId } from '../../common/ids';
import type { SubmitQuoteRatingDto } from './dto';
import { QuoteRatingsRepository } from './quote-ratings.repository';
import type { Int } from '../../common/int';

/** `data` of `GET /quotes/rating` (contract facts §10.4). */
export interface QuoteRatingView {
  _id: string;
  language: string;
  quoteId: Int;
  average: number;
  ratings: Int;
  totalRating: Int;
}

/** The average as the original stores it: rounded to one decimal. */
export function averageRating(totalRating: number, ratings: number): number {
  return ratings === 0 ? 0 : Math.round((totalRating / ratings) * 10) / 10;
}

@Injectable()
export class QuoteRatingsService {
  private readonly logger = new Logger(QuoteRatingsService.name);

  constructor(private readonly repository: QuoteRatingsRepository) {}

  async get(language: string, quoteId: number): Promise<QuoteRatingView | null> {
    const record = await this.repository.find(language, quoteId);
    if (!record) return null;
    return {
      _id: record.id,
      language: record.language,
      quoteId: record.quoteId,
      average: averageRating(record.totalRating, record.ratings),
      ratings: record.ratings,
      totalRating: record.totalRating,
    };
  }

  /** Returns the message: a first rating is submitted, a second one updates the first. */
  async rate(uid: string, dto: SubmitQuoteRatingDto): Promise<string> {
    const { updated } = await this.repository.rate(
      { uid, language: dto.language, quoteId: dto.quoteId, rating: dto.rating },
      newId(),
    );
    this.logger.log({ uid, language: dto.language, quoteId: dto.quoteId, updated }, 'quote rated');
    return updated ? 'Rating updated' : 'Rating submitted';
  }
}
