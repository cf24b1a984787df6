import { IsEmail, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { UID_MAX_LENGTH } from '../../../common/auth/uid';
import { IsUserName } from '../user-name';

export class SignupDto {
  @IsUserName()
  name!: string;

  /** The stored email comes from the token; this one is used only when the token carries none. */
  @IsOptional()
  @IsEmail()
  @MaxLength(254)
  email?: string;

  /** Sent by the original platform's client; the uid always comes from the token. */
  @IsOptional()
  @IsString()
  @MaxLength(UID_MAX_LENGTH)
  uid?: string;

  @IsString()
  @MaxLength(4096)
  captcha!: string;
}

export class NameParamDto {
  @IsUserName()
  name!: string;
}

export class ForgotPasswordDto {
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsString()
  @MaxLength(4096)
  captcha!: string;
}

export class UpdateNameDto {
  @IsUserName()
  name!: string;
}

export class UpdateEmailDto {
  @IsEmail()
  @MaxLength(254)
  newEmail!: string;

  @IsEmail()
  @MaxLength(254)
  previousEmail!: string;
}

export class UpdatePasswordDto {
  @IsString()
  @MinLength(6)
  @MaxLength(4096)
  newPassword!: string;
}
