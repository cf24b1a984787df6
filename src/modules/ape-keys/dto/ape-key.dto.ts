import { IsBoolean, IsOptional, IsString, Length, Matches } from 'class-validator';
import { IsId } from '../../../common/validation/is-id';

// The original's slug: letters, digits, underscore, dot, hyphen; not starting with a dot.
const NAME = /^(?!\.)[0-9a-zA-Z_.-]+$/;
const NAME_MESSAGE =
  'must contain only letters, numbers, underscores, dots and hyphens, and not start with a dot';

export class CreateApeKeyDto {
  @IsString()
  @Length(1, 20)
  @Matches(NAME, { message: NAME_MESSAGE })
  name!: string;

  @IsBoolean()
  enabled!: boolean;
}

/** Only the given fields change. */
export class UpdateApeKeyDto {
  @IsOptional()
  @IsString()
  @Length(1, 20)
  @Matches(NAME, { message: NAME_MESSAGE })
  name?: string;

  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class ApeKeyIdParams {
  @IsId()
  apeKeyId!: string;
}
