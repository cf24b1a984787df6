import { IsId } from '../../../common/validation/is-id';

export class ResultIdParamDto {
  @IsId()
  resultId!: string;
}
