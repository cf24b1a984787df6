import { Type } from 'class-transformer';
import { IsDefined, IsObject, ValidateNested } from 'class-validator';
import { CompletedResultDto } from './completed-result.dto';

export class SubmitResultDto {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CompletedResultDto)
  result!: CompletedResultDto;
}
