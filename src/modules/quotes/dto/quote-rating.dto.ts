import { Transform } from 'class-transformer';
import { IsInt, IsString, Max, Min } from 'class-validator';
import { IsLanguage } from '../../../common/validation/is-language';

/** A quote id is a non-negative integer; clients may send it as a digit string. */
const ToQuoteId = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value,
  );

/** `GET /quotes/rating` query (strict). */
export class QuoteRatingQueryDto {
  @ToQuoteId()
  @IsInt()
  @Min(0)
  // Stored as a PostgreSQL integer.
  @Max(2_147_483_647)
  quoteId!: number;

  @IsString()
  @IsLanguage()
  language!: string;
}

/** `POST /quotes/rating` body (strict). */
export class SubmitQuoteRatingDto extends QuoteRatingQueryDto {
  @IsInt()
  @Min(1)
  @Max(5)
  rating!: number;
}
