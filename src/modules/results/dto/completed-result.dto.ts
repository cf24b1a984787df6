import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsId } from '../../../common/validation/is-id';
import { IsLanguage } from '../../../common/validation/is-language';
import { CHALLENGES } from '../domain/challenges';
import { IsChartData, IsFunboxName, IsKeyTimings, IsMode2ForMode } from './result-validators';

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
  @IsOptional()
  @IsNumber()
  @Min(0)
  afkDuration: number = 0;

  @IsOptional()
  @IsNumber()
  @Min(0)
  incompleteTestSeconds: number = 0;

  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => IncompleteTestDto)
  incompleteTests: IncompleteTestDto[] = [];

  @IsOptional()
  @IsInt()
  @Min(0)
  restartCount: number = 0;

  @IsOptional()
  @IsBoolean()
  punctuation: boolean = false;

  @IsOptional()
  @IsBoolean()
  numbers: boolean = false;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(15)
  @IsFunboxName()
  funbox: string[] = [];

  @IsOptional()
  @IsBoolean()
  correctedEverything?: boolean;

  // Stored or checked when sent.
  @IsOptional()
  @IsArray()
  @ArrayMinSize(4)
  @ArrayMaxSize(4)
  @IsInt({ each: true })
  @Min(0, { each: true })
  charStats?: [number, number, number, number];

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3)
  quoteLength?: number;

  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(100)
  keyConsistency?: number;

  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(100)
  wpmConsistency?: number;

  @IsOptional()
  @IsChartData()
  chartData?: { wpm: number[]; burst: number[]; err: number[] } | 'toolong';

  @IsOptional()
  @IsId()
  uid?: string;

  @IsOptional()
  @IsArray()
  @IsId(true)
  tags: string[] = [];

  @IsOptional()
  @IsBoolean()
  bailedOut: boolean = false;

  @IsOptional()
  @IsBoolean()
  blindMode: boolean = false;

  @IsOptional()
  @IsBoolean()
  lazyMode: boolean = false;

  @IsOptional()
  @IsBoolean()
  stopOnLetter: boolean = false;

  @IsOptional()
  @IsIn(DIFFICULTIES)
  difficulty: (typeof DIFFICULTIES)[number] = 'normal';

  @IsOptional()
  @IsInt()
  @Min(0)
  charTotal?: number;

  @IsOptional()
  @IsIn(CHALLENGES)
  challenge?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => CustomTextDto)
  customText?: CustomTextDto;

  @IsOptional()
  @IsKeyTimings()
  keySpacing?: number[] | 'toolong';

  @IsOptional()
  @IsKeyTimings()
  keyDuration?: number[] | 'toolong';

  @IsOptional()
  @IsNumber()
  @Min(0)
  keyOverlap?: number;

  @IsOptional()
  @IsNumber()
  @Min(0)
  lastKeyToEnd?: number;

  @IsOptional()
  @IsNumber()
  @Min(0)
  startToFirstKey?: number;
}
