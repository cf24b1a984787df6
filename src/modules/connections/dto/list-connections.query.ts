import { IsIn, IsOptional } from 'class-validator';
import {
  CONNECTION_STATUSES,
  CONNECTION_TYPES,
  type ConnectionStatus,
  type ConnectionType,
} from '../connection-rules';

/** Each filter takes one value (`?status=pending`) or several (`?status=pending&status=blocked`), as the original. */
export class ListConnectionsQuery {
  @IsOptional()
  @IsIn(CONNECTION_STATUSES, { each: true })
  status?: ConnectionStatus | ConnectionStatus[];

  @IsOptional()
  @IsIn(CONNECTION_TYPES, { each: true })
  type?: ConnectionType | ConnectionType[];
}
