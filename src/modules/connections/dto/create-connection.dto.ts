import { IsString, Length } from 'class-validator';

export class CreateConnectionDto {
  /** Looked up case-insensitively. */
  @IsString()
  @Length(1, 16)
  receiverName!: string;
}
