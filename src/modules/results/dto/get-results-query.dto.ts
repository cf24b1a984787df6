import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToNumber } from '../../../common/validation/transforms';

/** `GET /results` and `GET /users/results`. */
export class GetResultsQueryDto {
  /** 1 to 1000 (spec "Limits"); absent → min(maxBatchSize, maxLimit): docs/decisions/0047-get-results-default-limit.md */
  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(0)
  offset: number = 0;

  @IsOptional()
  @ToNumber()
  @IsInt()
  @Min(0)
  onOrAfterTimestamp?: number;
}
