import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsId } from '../../../common/validation/is-id';
import { PartialConfigDto } from '../../configs/config-schema';
import { Nullable } from '../../../common/validation/nullable';

/** The original client's setting groups a preset may be limited to. */
export const SETTING_GROUPS = [
  'test',
  'behavior',
  'input',
  'sound',
  'caret',
  'appearance',
  'theme',
  'hideElements',
  'hidden',
  'ads',
] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

// The original's preset name rule: letters and digits, single `_` or `-` between them.
const PRESET_NAME = /^[a-zA-Z0-9]+(?:[_-][a-zA-Z0-9]+)*$/;
const NAME_MESSAGE =
  'must contain only letters, numbers, underscores and hyphens, with separators not at the start or end or repeated';

/** A preset's configuration: the same per-key rules as `PATCH /configs`, plus the tag ids the preset activates. */
export class PresetConfigDto extends PartialConfigDto {
  @ValidateIf((o: PresetConfigDto) => o.tags !== undefined)
  @IsArray()
  @MaxLength(50, { each: true })
  @Matches(/^[a-zA-Z0-9_]+$/, { each: true, message: 'must contain only tag ids' })
  tags?: string[];
}

// Exported so the API document (src/generated/openapi-metadata.ts) can reach its fields.
export class PresetFieldsDto {
  @IsString()
  @Length(1, 16)
  @Matches(PRESET_NAME, { message: NAME_MESSAGE })
  name!: string;

  /** Absent or null: the preset applies every key of its config. */
  @IsOptional()
  @Nullable()
  @IsArray()
  @ArrayMinSize(1)
  @IsIn([...SETTING_GROUPS], { each: true })
  @ArrayUnique({ message: 'No duplicates allowed.' })
  settingGroups?: SettingGroup[] | null;
}

export class CreatePresetDto extends PresetFieldsDto {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PresetConfigDto)
  config!: PresetConfigDto;
}

export class EditPresetDto extends PresetFieldsDto {
  @IsString()
  @IsId()
  _id!: string;

  /** Absent or empty: the stored config stays as it is (as the original). */
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PresetConfigDto)
  config?: PresetConfigDto;
}

export class PresetIdParams {
  @IsId()
  presetId!: string;
}
