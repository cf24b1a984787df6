import { IsOptional, IsString } from 'class-validator';
import { IsId } from '../../../common/validation/is-id';

export class RejectQuoteDto {
  @IsString()
  @IsId()
  quoteId!: string;
}

export class ApproveQuoteDto extends RejectQuoteDto {
  /** Replaces the submitted text when non-empty. */
  @IsOptional()
  @IsString()
  editText?: string | null;

  /** Replaces the submitted source when non-empty. */
  @IsOptional()
  @IsString()
  editSource?: string | null;
}
