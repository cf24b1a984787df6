import { IsIn, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';

/** Contract facts U36. */
export const USER_REPORT_REASONS = [
  'Inappropriate name',
  'Inappropriate bio',
  'Inappropriate social links',
  'Suspected cheating',
] as const;

export class ReportUserDto {
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  uid!: string;

  @IsIn([...USER_REPORT_REASONS])
  reason!: (typeof USER_REPORT_REASONS)[number];

  /** Optional; up to 250 characters, no `/`, `<` or `>` (the original's rule); "" counts as none. */
  @ValidateIf((o: ReportUserDto) => o.comment !== undefined && o.comment !== '')
  @IsString()
  @MaxLength(250)
  // One character class (the original's `^([.]|[^/<>])+$` backtracks exponentially: ReDoS,
  // docs/decisions/0041-linear-validation-patterns.md).
  @Matches(/^[^/<>]+$/, { message: 'must not contain /, < or >' })
  comment?: string;

  @IsString()
  captcha!: string;
}
