import { ArrayMaxSize, IsArray, IsString } from 'class-validator';
import { IsId } from '../../../common/validation/is-id';

/** `PATCH /results/tags` (contract facts R5): the result's new tag list, replacing the old one. */
export class UpdateResultTagsDto {
  @IsArray()
  // More than a user can own (15) is never valid; the bound keeps the ownership query small.
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @IsId(true)
  tagIds!: string[];

  @IsString()
  @IsId()
  resultId!: string;
}
