import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IsUid } from '../../../common/auth/uid';
import { IsId } from '../../../common/validation/is-id';
import { IsLanguage } from '../../../common/validation/is-language';
import { CHALLENGES } from '../domain/challenges';
import { IsChartData, IsFunboxName, IsKeyTimings, IsMode2ForMode } from './result-validators';

/** `integer` columns (restart_count, char_stats): larger values made PostgreSQL fail the whole submission (500). */
const INT4_MAX = 2_147_483_647;

/** Optional, but `null` is not a value: it fails the field's checks (as the original client's schema). */
const Optional = () => ValidateIf((_object: unknown, value: unknown) => value !== undefined);

export const MODES = ['time', 'words', 'quote', 'zen', 'custom'] as const;
export const DIFFICULTIES = ['normal', 'expert', 'master'] as const;

export class IncompleteTestDto {
  @IsNumber()
  @Min(0)
  @Max(100)
  acc!: number;

  @IsNumber()
  @Min(0)
  seconds!: number;
}

export class CustomTextLimitDto {
  @IsIn(['word', 'time', 'section'])
  mode!: 'word' | 'time' | 'section';

  @IsNumber()
  @Min(0)
  value!: number;
}

export class CustomTextDto {
  @IsInt()
  @Min(0)
  textLen!: number;

  @IsIn(['repeat', 'random', 'shuffle'])
  mode!: string;

  @IsBoolean()
  pipeDelimiter!: boolean;

  @ValidateNested()
  @Type(() => CustomTextLimitDto)
  limit!: CustomTextLimitDto;
}

/**
 * The `result` of `POST /results`: the spec's required fields, and every other field the original client sends
 * (contract facts §12.8) plus `correctedEverything`, optional with the client's defaults. Unknown keys are rejected.
 */
export class CompletedResultDto {
  // Spec "Result, submitted": required.
  @IsNumber()
  @Min(0)
  @Max(420)
  wpm!: number;

  @IsNumber()
  @Min(0)
  @Max(420)
  rawWpm!: number;

  @IsNumber()
  @Min(0)
  @Max(100)
  acc!: number;

  @IsIn(MODES)
  mode!: (typeof MODES)[number];

  // The original client may send the number itself.
  @Transform(({ value }: { value: unknown }) =>
    typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value) : value,
  )
  @IsMode2ForMode()
  mode2!: string;

  @IsLanguage()
  language!: string;

  @IsInt()
  @Min(0)
  timestamp!: number;

  @IsNumber()
  @Min(1)
  testDuration!: number;

  @IsNumber()
  @Min(0)
  @Max(100)
  consistency!: number;

  @IsString()
  @Matches(/^[a-zA-Z0-9_]+$/)
  @MaxLength(100)
  hash!: string;

  // Read by the service; optional with the client's defaults.
  @Optional()
  @IsNumber()
  @Min(0)
  afkDuration: number = 0;

  @Optional()
  @IsNumber()
  @Min(0)
  incompleteTestSeconds: number = 0;

  @Optional()
  @IsArray()
  // ValidateNested alone accepts a nested array as an element.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => IncompleteTestDto)
  incompleteTests: IncompleteTestDto[] = [];

  @Optional()
  @IsInt()
  @Min(0)
  @Max(INT4_MAX)
  restartCount: number = 0;

  @Optional()
  @IsBoolean()
  punctuation: boolean = false;

  @Optional()
  @IsBoolean()
  numbers: boolean = false;

  @Optional()
  @IsArray()
  @ArrayMaxSize(15)
  @IsFunboxName()
  funbox: string[] = [];

  @Optional()
  @IsBoolean()
  correctedEverything?: boolean;

  // Stored or checked when sent.
  @Optional()
  @IsArray()
  @ArrayMinSize(4)
  @ArrayMaxSize(4)
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(INT4_MAX, { each: true })
  charStats?: [number, number, number, number];

  @Optional()
  @IsInt()
  @Min(0)
  @Max(3)
  quoteLength?: number;

  @Optional()
  @IsNumber()
  @Min(0)
  @Max(100)
  keyConsistency?: number;

  @Optional()
  @IsNumber()
  @Min(0)
  @Max(100)
  wpmConsistency?: number;

  @Optional()
  @IsChartData()
  chartData?: { wpm: number[]; burst: number[]; err: number[] } | 'toolong';

  /**
   * The caller's uid as the client hashed it: any uid the identity provider issues, not an entity id. Never stored
   * (the result is the caller's); another user's uid fails the hash check, which hashes with the caller's (461).
   */
  @Optional()
  @IsUid()
  uid?: string;

  @Optional()
  @IsArray()
  @IsId(true)
  tags: string[] = [];

  @Optional()
  @IsBoolean()
  bailedOut: boolean = false;

  @Optional()
  @IsBoolean()
  blindMode: boolean = false;

  @Optional()
  @IsBoolean()
  lazyMode: boolean = false;

  @Optional()
  @IsBoolean()
  stopOnLetter: boolean = false;

  @Optional()
  @IsIn(DIFFICULTIES)
  difficulty: (typeof DIFFICULTIES)[number] = 'normal';

  @Optional()
  @IsInt()
  @Min(0)
  charTotal?: number;

  @Optional()
  @IsIn(CHALLENGES)
  challenge?: string;

  @Optional()
  @ValidateNested()
  @Type(() => CustomTextDto)
  customText?: CustomTextDto;

  @Optional()
  @IsKeyTimings()
  keySpacing?: number[] | 'toolong';

  @Optional()
  @IsKeyTimings()
  keyDuration?: number[] | 'toolong';

  @Optional()
  @IsNumber()
  @Min(0)
  keyOverlap?: number;

  @Optional()
  @IsNumber()
  @Min(0)
  lastKeyToEnd?: number;

  @Optional()
  @IsNumber()
  @Min(0)
  startToFirstKey?: number;
}
