import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsEmail,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsUid } from '../../../common/auth/uid';

/** `POST /admin/toggleBan`, `POST /admin/clearStreakHourOffset`. */
export class AdminUidDto {
  // Any uid the identity provider issues (OIDC subjects such as `auth0|…`), not only our 24-hex ids.
  @IsUid()
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
  // ValidateNested accepts a nested array as an element (its items validated instead): 500 in the service.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => AcceptedReportDto)
  reports!: AcceptedReportDto[];
}

/** `POST /admin/report/reject`. */
export class RejectReportsDto {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  // ValidateNested accepts a nested array as an element (its items validated instead): 500 in the service.
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => RejectedReportDto)
  reports!: RejectedReportDto[];
}

/** `POST /admin/sendForgotPasswordEmail`. */
export class AdminForgotPasswordDto {
  @IsEmail()
  email!: string;
}
