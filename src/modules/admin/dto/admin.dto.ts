import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsId } from '../../../common/validation/is-id';

/** `POST /admin/toggleBan`, `POST /admin/clearStreakHourOffset`. */
export class AdminUidDto {
  @IsString()
  @IsId()
  uid!: string;
}

export class AcceptedReportDto {
  @IsString()
  @MaxLength(100)
  reportId!: string;
}

export class RejectedReportDto extends AcceptedReportDto {
  /** Told to the reporter in the "Report denied" mail. */
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}

/** `POST /admin/report/accept`. */
export class AcceptReportsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => AcceptedReportDto)
  reports!: AcceptedReportDto[];
}

/** `POST /admin/report/reject`. */
export class RejectReportsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => RejectedReportDto)
  reports!: RejectedReportDto[];
}

/** `POST /admin/sendForgotPasswordEmail`. */
export class AdminForgotPasswordDto {
  @IsEmail()
  email!: string;
}
