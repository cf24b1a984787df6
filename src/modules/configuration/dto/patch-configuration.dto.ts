import { IsDefined, IsObject } from 'class-validator';

/** `{ configuration: <deep partial> }`; every key and type inside is checked against the configuration schema. */
export class PatchConfigurationDto {
  @IsDefined()
  @IsObject()
  configuration!: Record<string, unknown>;
}
