import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsString, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { IsLanguage } from '../../../common/validation/is-language';

/** The original platform's quote report reasons (contract facts, Appendix E). */
export const QUOTE_REPORT_REASONS = [
  'Grammatical error',
  'Duplicate quote',
  'Inappropriate content',
  'Low quality content',
  'Incorrect source',
] as const;
export type QuoteReportReason = (typeof QUOTE_REPORT_REASONS)[number];

export class ReportQuoteDto {
  /** A quote id is a non-negative integer; clients may send it as a digit string. */
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value,
  )
  @IsInt()
  @Min(0)
  // Stored as a PostgreSQL integer.
  @Max(2_147_483_647)
  quoteId!: number;

  @IsString()
  @IsLanguage()
  quoteLanguage!: string;

  @IsIn([...QUOTE_REPORT_REASONS])
  reason!: QuoteReportReason;

  /** Optional; up to 250 characters, no `/`, `<` or `>` (the original's rule); "" counts as none. */
  @ValidateIf((o: ReportQuoteDto) => o.comment !== undefined && o.comment !== '')
  @IsString()
  @MaxLength(250)
  // One character class: the original `^([.]|[^/<>])+$` backtracks exponentially (both branches match "."),
  // so 30 dots and a "/" took seconds of CPU (ReDoS, docs/decisions/0041-linear-validation-patterns.md).
  @Matches(/^[^/<>]+$/, { message: 'must not contain /, < or >' })
  comment?: string;

  @IsString()
  captcha!: string;
}
