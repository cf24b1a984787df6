import { ArrayMaxSize, ArrayMinSize, IsArray, IsOptional, IsUUID } from 'class-validator';

/** Spec "Tags, custom themes, inbox": both optional; when given, at least one id (as on the original platform). */
export class UpdateInboxDto {
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true, message: 'must contain mail ids (UUIDs) only' })
  mailIdsToMarkRead?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsUUID('all', { each: true, message: 'must contain mail ids (UUIDs) only' })
  mailIdsToDelete?: string[];
}
