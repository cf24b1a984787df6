import { IsString, MaxLength } from 'class-validator';
import { IsLanguage } from '../../../common/validation/is-language';
import { ToText } from '../../../common/validation/transforms';

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

  // `mode2=15` arrives as the number 15 in JSON query mode.
  @ToText()
  @IsString()
  @MaxLength(20)
  mode2!: string;
}
