import { IsString, MinLength } from 'class-validator';
import { IsLanguage } from '../../../common/validation/is-language';

export class SubmitQuoteDto {
  @IsString()
  @MinLength(60)
  text!: string;

  @IsString()
  @MinLength(1)
  source!: string;

  @IsString()
  @IsLanguage()
  language!: string;

  /** Captcha-provider token, checked through the captcha adapter. */
  @IsString()
  captcha!: string;
}
