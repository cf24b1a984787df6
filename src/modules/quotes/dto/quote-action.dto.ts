import { IsOptional, IsString } from 'class-validator';
import { IsId } from '../../../common/validation/is-id';
import { Nullable } from '../../../common/validation/nullable';

export class RejectQuoteDto {
  @IsString()
  @IsId()
  quoteId!: string;
}

export class ApproveQuoteDto extends RejectQuoteDto {
  /** Replaces the submitted text when non-empty. */
  @IsOptional()
  @Nullable()
  @IsString()
  editText?: string | null;

  /** Replaces the submitted source when non-empty. */
  @IsOptional()
  @Nullable()
  @IsString()
  editSource?: string | null;
}
