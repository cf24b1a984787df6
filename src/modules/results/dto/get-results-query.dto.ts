import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { ToNumber } from '../../../common/validation/transforms';

/** `GET /results` and `GET /users/results`. */
export class GetResultsQueryDto {
  /** Spec "Limits": up to 1000 per request; absent → min(maxBatchSize, maxLimit) (DECISIONS.md "Results"). */
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
