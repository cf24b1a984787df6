import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { AppError } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { newId } from '../../common/ids';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { toConfigPatch } from '../configs/config-schema';
import type { CreatePresetDto, EditPresetDto, PresetConfigDto } from './dto/preset.dto';
import { PresetsRepository } from './presets.repository';

export const PRESET_MESSAGES = {
  tooMany: 'Too many presets',
  notFound: 'Preset not found',
} as const;

export interface PresetView {
  _id: string;
  name: string;
  config: Record<string, unknown>;
  settingGroups?: string[];
}

/** A preset's config as stored: the configuration keys plus the tag ids it activates. */
function storedConfig(config: PresetConfigDto): Record<string, unknown> {
  const stored = toConfigPatch(config);
  if (config.tags !== undefined) stored.tags = config.tags;
  return stored;
}

@Injectable()
export class PresetsService implements OnModuleInit {
  private readonly logger = new Logger(PresetsService.name);

  constructor(
    private readonly repository: PresetsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly lifecycle: AccountLifecycle,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // Domain facts §5.10: an account reset deletes the user's presets.
    this.lifecycle.onReset('presets', (uid, trx) => this.repository.deleteAllOf(uid, trx));
  }

  async list(uid: string): Promise<PresetView[]> {
    const rows = await this.repository.list(uid);
    return rows.map((row) => ({
      _id: row.id,
      name: row.name,
      config: row.config,
      ...(row.settingGroups === null ? {} : { settingGroups: row.settingGroups }),
    }));
  }

  async add(uid: string, dto: CreatePresetDto): Promise<{ presetId: string }> {
    const { maxPerUser } = (await this.configuration.get()).presets;
    const id = newId();
    const inserted = await this.repository.insertWithinCap(
      uid,
      { id, name: dto.name, config: storedConfig(dto.config), settingGroups: dto.settingGroups ?? null },
      maxPerUser,
      this.clock.now(),
    );
    if (!inserted) throw new AppError(409, PRESET_MESSAGES.tooMany);
    this.logger.log({ uid, presetId: id }, 'preset created');
    return { presetId: id };
  }

  async edit(uid: string, dto: EditPresetDto): Promise<void> {
    const config = dto.config ? storedConfig(dto.config) : undefined;
    const updated = await this.repository.update(uid, dto._id, {
      name: dto.name,
      // An empty config leaves the stored one as it is (the original client sends {} to rename only).
      config: config && Object.keys(config).length > 0 ? config : undefined,
      settingGroups: dto.settingGroups,
    });
    if (!updated) throw new AppError(404, PRESET_MESSAGES.notFound);
  }

  async remove(uid: string, presetId: string): Promise<void> {
    if (!(await this.repository.delete(uid, presetId))) throw new AppError(404, PRESET_MESSAGES.notFound);
    this.logger.log({ uid, presetId }, 'preset deleted');
  }
}
