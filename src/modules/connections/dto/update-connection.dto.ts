import { IsIn } from 'class-validator';
import { RECEIVER_DECISIONS, type ReceiverDecision } from '../connection-rules';

export class UpdateConnectionDto {
  @IsIn(RECEIVER_DECISIONS)
  status!: ReceiverDecision;
}
