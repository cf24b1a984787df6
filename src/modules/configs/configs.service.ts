import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { AccountLifecycle } from '../../common/account-lifecycle';
import { Clock } from '../../common/clock';
import { CONFIG_KEYS, defaultConfig, type UserConfig } from './config-schema';
import { ConfigsRepository } from './configs.repository';

@Injectable()
export class ConfigsService implements OnModuleInit {
  private readonly logger = new Logger(ConfigsService.name);

  constructor(
    private readonly repository: ConfigsRepository,
    private readonly lifecycle: AccountLifecycle,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    // Domain facts §5.10: an account reset deletes the saved configuration.
    this.lifecycle.onReset('configs', (uid, trx) => this.repository.deleteOf(uid, trx));
  }

  /**
   * The defaults overlaid with what the user saved. Stored keys the schema no longer knows are left out, so a
   * removed setting never reaches clients.
   */
  async get(uid: string): Promise<UserConfig> {
    const stored = (await this.repository.find(uid)) ?? {};
    const config = defaultConfig();
    for (const [key, value] of Object.entries(stored)) if (CONFIG_KEYS.has(key)) config[key] = value;
    return config;
  }

  /** Only the given keys change; they were validated by the DTO. */
  async update(uid: string, patch: UserConfig): Promise<void> {
    const keys = Object.keys(patch);
    if (keys.length === 0) return;
    await this.repository.merge(uid, patch, this.clock.now());
    this.logger.log({ uid, keys }, 'config updated');
  }

  async delete(uid: string): Promise<void> {
    await this.repository.deleteOf(uid);
    this.logger.log({ uid }, 'config deleted');
  }
}
