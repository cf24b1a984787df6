import { Type } from 'class-transformer';
import { IsObject, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsId } from '../../../common/validation/is-id';
import { IsLanguage } from '../../../common/validation/is-language';
import { IsThemeColors, type ThemeColors } from '../theme-colors';
import { IsLabel } from '../user-name';

export class AddTagDto {
  @IsLabel()
  tagName!: string;
}

export class EditTagDto {
  @IsString()
  @IsId()
  tagId!: string;

  @IsLabel()
  newName!: string;
}

export class TagParamDto {
  @IsId()
  tagId!: string;
}

/**
 * docs/decisions/0025-custom-theme-shapes.md: the spec's nine named hex colours, or the original client's array of 10
 * (see theme-colors.ts).
 */
export class CustomThemeDto {
  @IsLabel()
  name!: string;

  @IsThemeColors()
  colors!: ThemeColors;
}

export class EditCustomThemeDto {
  @IsString()
  @IsId()
  themeId!: string;

  @IsObject()
  @ValidateNested()
  @Type(() => CustomThemeDto)
  theme!: CustomThemeDto;
}

export class CustomThemeIdDto {
  @IsString()
  @IsId()
  themeId!: string;
}

export class FavoriteQuoteDto {
  @IsString()
  @IsLanguage()
  language!: string;

  @IsString()
  @MaxLength(12)
  @Matches(/^\d+$/, { message: 'must be a quote id (digits)' })
  quoteId!: string;
}

export class ChatLinkDto {
  @IsString()
  @Matches(/^[A-Za-z]{1,32}$/, { message: 'must be a token type such as "Bearer"' })
  tokenType!: string;

  @IsString()
  @Matches(/^[\x21-\x7e]{1,2048}$/, { message: 'must be an access token' })
  accessToken!: string;

  @IsString()
  @Matches(/^.{20}$/s, { message: 'must be exactly 20 characters long' })
  state!: string;
}
