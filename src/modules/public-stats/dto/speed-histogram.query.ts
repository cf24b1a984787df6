import { IsString, MaxLength } from 'class-validator';
import { IsLanguage } from '../../../common/validation/is-language';

/**
 * `GET /public/speedHistogram` (strict). Any mode and mode2 are accepted, as in the original: a combination without
 * a board answers an empty histogram.
 */
export class SpeedHistogramQueryDto {
  @IsString()
  @IsLanguage()
  language!: string;

  @IsString()
  @MaxLength(20)
  mode!: string;

  @IsString()
  @MaxLength(20)
  mode2!: string;
}
