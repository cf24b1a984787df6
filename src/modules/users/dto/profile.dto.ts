import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  isURL,
  Matches,
  MaxLength,
  Min,
  ValidateBy,
  ValidateNested,
} from 'class-validator';
import { UID_MAX_LENGTH } from '../../../common/auth/uid';

const SLUG_OR_EMPTY = /^(?:[0-9a-zA-Z_-][0-9a-zA-Z_.-]*)?$/;
const SLUG_MESSAGE = 'may only contain letters, digits, underscores, hyphens and dots (not first)';

const IsHttpsUrlOrEmpty = () =>
  ValidateBy({
    name: 'isHttpsUrlOrEmpty',
    validator: {
      validate: (value: unknown) =>
        value === '' ||
        (typeof value === 'string' &&
          value.startsWith('https://') &&
          isURL(value, { protocols: ['https'], require_protocol: true })),
      defaultMessage: () => 'must be empty or a URL starting with "https://"',
    },
  });

/** The original platform's three platforms; `website` holds a URL (spec "Profile details"). */
export class SocialProfilesDto {
  @IsOptional()
  @IsString()
  @MaxLength(15)
  @Matches(SLUG_OR_EMPTY, { message: SLUG_MESSAGE })
  twitter?: string;

  @IsOptional()
  @IsString()
  @MaxLength(39)
  @Matches(SLUG_OR_EMPTY, { message: SLUG_MESSAGE })
  github?: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  @IsHttpsUrlOrEmpty()
  website?: string;
}

export class UpdateProfileDto {
  @IsOptional()
  @IsString()
  @MaxLength(250)
  bio?: string;

  @IsOptional()
  @IsString()
  @MaxLength(75)
  keyboard?: string;

  /** A badge the user owns, or -1 for none (the original client's "no badge"). */
  @IsOptional()
  @IsInt()
  @Min(-1)
  selectedBadgeId?: number;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => SocialProfilesDto)
  socialProfiles?: SocialProfilesDto;

  @IsOptional()
  @IsBoolean()
  showActivityOnPublicProfile?: boolean;
}

export class ProfileParamDto {
  @IsString()
  @MaxLength(UID_MAX_LENGTH)
  uidOrName!: string;
}

export class ProfileQueryDto {
  /** `?isUid`, `?isUid=` and `?isUid=true` mean the path value is a uid (as on the original platform). */
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => {
    if (value === '' || value === 'true') return true;
    if (value === 'false') return false;
    return value;
  })
  @IsBoolean()
  isUid?: boolean;
}
