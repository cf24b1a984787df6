import { IsId } from '../../../common/validation/is-id';

export class ConnectionIdParams {
  @IsId()
  id!: string;
}
