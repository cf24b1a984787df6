import { readFile } from 'node:fs/promises';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Clock } from '../clock';
import { ValidationFailed } from '../app-error';
import { redisKeys } from '../../infra/redis/keys';
import { REDIS, type Redis } from '../../infra/redis/redis';
import { deepMerge, pruneToSchema, validateAgainst } from '../../config/config-schema';
import { APP_ENV, type AppEnv } from '../../config/env';
import { ServerConfigurationRepository } from './server-configuration.repository';
import {
  defaultServerConfiguration,
  SERVER_CONFIGURATION_SCHEMA,
  type ServerConfiguration,
} from '../../config/server-configuration.schema';

/**
 * The server configuration document: defaults merged with what is stored in PostgreSQL. Cached in-process for
 * CONFIG_CACHE_MS; the replica that applies a change sees it at once and tells the others through Redis pub/sub.
 */
@Injectable()
export class ServerConfigurationService implements OnModuleInit, OnModuleDestroy {
  private cached: ServerConfiguration = defaultServerConfiguration();
  private loadedAt = -Infinity;
  private inflight: Promise<ServerConfiguration> | null = null;
  private subscriber: Redis | null = null;
  private readonly logger = new Logger(ServerConfigurationService.name);

  constructor(
    private readonly repository: ServerConfigurationRepository,
    private readonly clock: Clock,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(APP_ENV) private readonly env: AppEnv,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.env.serverConfigFile) await this.mergeFile(this.env.serverConfigFile);
    await this.refresh();
    this.subscriber = this.redis.duplicate();
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', () => {
      this.loadedAt = -Infinity;
    });
    await this.subscriber.subscribe(redisKeys.configurationChannel());
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscriber?.quit().catch(() => undefined);
  }

  /** The current configuration; at most CONFIG_CACHE_MS old. */
  async get(): Promise<ServerConfiguration> {
    if (Date.now() - this.loadedAt < this.env.configCacheMs) return this.cached;
    this.inflight ??= this.refresh().finally(() => (this.inflight = null));
    return this.inflight;
  }

  /**
   * Validates a deep partial (every key known, every value of the right type) and merges it into the stored
   * document. Throws 422 with the problems otherwise.
   */
  async patch(partial: unknown): Promise<ServerConfiguration> {
    this.assertValidPartial(partial, 422, 'Invalid request data schema', 'configuration');
    const stored = await this.repository.update(
      (current) => deepMerge(pruneToSchema(SERVER_CONFIGURATION_SCHEMA, current) ?? {}, partial),
      this.clock.now(),
    );
    this.apply(stored);
    await this.redis
      .publish(redisKeys.configurationChannel(), String(this.clock.now()))
      .catch(() => undefined);
    return this.cached;
  }

  private assertValidPartial(partial: unknown, status: 400 | 422, message: string, path: string): void {
    const errors = validateAgainst(SERVER_CONFIGURATION_SCHEMA, partial, path, true);
    if (errors.length > 0) throw new ValidationFailed(status, message, errors);
  }

  private async mergeFile(file: string): Promise<void> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readFile(file, 'utf8'));
    } catch (e) {
      throw new Error(`SERVER_CONFIG_FILE ${file} could not be read as JSON: ${(e as Error).message}`, {
        cause: e,
      });
    }
    const errors = validateAgainst(SERVER_CONFIGURATION_SCHEMA, parsed, '', true);
    if (errors.length > 0)
      throw new Error(`SERVER_CONFIG_FILE ${file} is invalid:\n  ${errors.join('\n  ')}`);
    await this.repository.update(
      (current) => deepMerge(pruneToSchema(SERVER_CONFIGURATION_SCHEMA, current) ?? {}, parsed),
      this.clock.now(),
    );
    this.logger.log({ file }, 'merged server configuration file');
  }

  private async refresh(): Promise<ServerConfiguration> {
    this.apply(await this.repository.load());
    return this.cached;
  }

  private apply(stored: unknown): void {
    const valid = pruneToSchema(SERVER_CONFIGURATION_SCHEMA, stored) ?? {};
    this.cached = deepMerge(defaultServerConfiguration(), valid);
    this.loadedAt = Date.now();
  }
}
