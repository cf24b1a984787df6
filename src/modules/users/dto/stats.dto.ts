import { IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, ValidateBy } from 'class-validator';
import { IsLanguage } from '../../../common/validation/is-language';
import { ToText } from '../../../common/validation/transforms';
import { MODES } from '../personal-bests';

export class PersonalBestsQueryDto {
  @IsOptional()
  @IsIn(MODES)
  mode?: string;

  @IsOptional()
  @ToText()
  @Matches(/^(\d{1,6}|zen|custom)$/, { message: 'must be a number, "zen" or "custom"' })
  @ValidateBy({
    name: 'needsMode',
    validator: {
      validate: (_value: unknown, args) => (args?.object as PersonalBestsQueryDto).mode !== undefined,
      defaultMessage: () => 'needs mode',
    },
  })
  mode2?: string;
}

export class HourOffsetDto {
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(-11)
  @Max(12)
  @ValidateBy({
    name: 'halfHourStep',
    validator: {
      validate: (value: unknown) => typeof value === 'number' && Number.isInteger(value * 2),
      defaultMessage: () => 'must be a multiple of 0.5',
    },
  })
  hourOffset!: number;
}

/** `PATCH /users/leaderboardMemory` (contract facts U7): the rank the client last saw on one board. */
export class LeaderboardMemoryDto {
  @IsIn(MODES)
  mode!: string;

  @IsString()
  @Matches(/^(\d{1,6}|zen|custom)$/, { message: 'must be a number, "zen" or "custom"' })
  mode2!: string;

  @IsString()
  @IsLanguage()
  language!: string;

  @IsInt()
  @Min(0)
  rank!: number;
}
