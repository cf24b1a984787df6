import { IsString, Length, Matches } from 'class-validator';
import { ID_PATTERN } from '../../../common/ids';
import { isLanguage } from '../../../common/languages';
import { IsId } from '../../../common/validation/is-id';
import { isFunboxName } from '../../results/domain/funboxes';
import { MODES } from '../personal-bests';
import { IsFlagMap } from './flag-map';

const orNone = (test: (key: string) => boolean) => (key: string) => key === 'none' || test(key);

/**
 * A saved result filter (contract facts §12.9, "ResultFilters"): every key required, each group an object of booleans.
 * The client's `_id` is required but replaced by ours.
 */
export class ResultFiltersDto {
  @IsString()
  @IsId()
  _id!: string;

  @IsString()
  @Length(1, 16, { message: 'must be 1-16 characters long' })
  @Matches(/^[0-9a-zA-Z_.-]+$/, {
    message: 'may only contain letters, numbers, underscores, dots and hyphens',
  })
  @Matches(/^[^.]/, { message: 'cannot start with a dot' })
  name!: string;

  @IsFlagMap({ keys: ['no', 'yes'], required: true })
  pb!: Record<string, boolean>;

  @IsFlagMap({ keys: ['normal', 'expert', 'master'] })
  difficulty!: Record<string, boolean>;

  @IsFlagMap({ keys: MODES })
  mode!: Record<string, boolean>;

  @IsFlagMap({ keys: ['10', '25', '50', '100', 'custom'] })
  words!: Record<string, boolean>;

  @IsFlagMap({ keys: ['15', '30', '60', '120', 'custom'] })
  time!: Record<string, boolean>;

  @IsFlagMap({ keys: ['short', 'medium', 'long', 'thicc'] })
  quoteLength!: Record<string, boolean>;

  @IsFlagMap({ keys: ['on', 'off'], required: true })
  punctuation!: Record<string, boolean>;

  @IsFlagMap({ keys: ['on', 'off'], required: true })
  numbers!: Record<string, boolean>;

  @IsFlagMap({ keys: ['last_day', 'last_week', 'last_month', 'last_3months', 'all'], required: true })
  date!: Record<string, boolean>;

  @IsFlagMap({ keys: orNone((k) => ID_PATTERN.test(k)) })
  tags!: Record<string, boolean>;

  @IsFlagMap({ keys: (k) => isLanguage(k) })
  language!: Record<string, boolean>;

  @IsFlagMap({ keys: orNone(isFunboxName) })
  funbox!: Record<string, boolean>;
}

export class ResultFilterPresetParamDto {
  @IsId()
  presetId!: string;
}
