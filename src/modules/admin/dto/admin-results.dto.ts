import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsId } from '../../../common/validation/is-id';
import { ToNumber } from '../../../common/validation/transforms';

/** `GET /admin/result/held`: the queue, oldest first. */
export class HeldResultsQueryDto {
  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  @Max(200)
  limit: number = 50;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(0)
  offset: number = 0;
}

export class AcceptedResultDto {
  @IsId()
  resultId!: string;
}

export class RejectedResultDto extends AcceptedResultDto {
  /** Kept with the decision (for moderators; the user is not told). */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

/** `POST /admin/result/accept`. */
export class AcceptResultsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  // ValidateNested accepts a nested array as an element (its items validated instead): 500 in the service.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => AcceptedResultDto)
  results!: AcceptedResultDto[];
}

/** `POST /admin/result/reject`. */
export class RejectResultsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  // ValidateNested accepts a nested array as an element (its items validated instead): 500 in the service.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => RejectedResultDto)
  results!: RejectedResultDto[];
}
