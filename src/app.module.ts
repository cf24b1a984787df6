import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import type { DestinationStream } from 'pino';
import { AccountLifecycleModule } from './common/account-lifecycle';
import { AuthModule } from './common/auth/auth.module';
import { CaptchaModule } from './common/captcha/captcha.module';
import type { Clock } from './common/clock';
import { AllExceptionsFilter } from './common/filters/all-exceptions.filter';
import { AppValidationPipe } from './common/validation/validation.pipe';
import { ConfigModule } from './config/config.module';
import { ServerConfigurationModule } from './common/server-configuration/server-configuration.module';
import type { AppEnv } from './config/env';
import { DatabaseModule } from './infra/database/database.module';
import { LoggingModule } from './infra/logging/logging.module';
import { RedisModule } from './infra/redis/redis.module';
import { AdminApiModule } from './modules/admin/admin-api.module';
import { ConfigsModule } from './modules/configs/configs.module';
import { ApeKeyModule } from './modules/ape-keys/ape-keys.module';
import { ConnectionModule } from './modules/connections/connections.module';
import { ConfigurationModule } from './modules/configuration/configuration.module';
import { InboxModule } from './modules/inbox/inbox.module';
import { LeaderboardModule } from './modules/leaderboards/leaderboards.module';
import { PortabilityModule } from './modules/portability/portability.module';
import { PresetsModule } from './modules/presets/presets.module';
import { PsasModule } from './modules/psas/psas.module';
import { PublicStatsModule } from './modules/public-stats/public-stats.module';
import { QuotesModule } from './modules/quotes/quotes.module';
import { ResultsModule } from './modules/results/results.module';
import { StatusModule } from './modules/status/status.module';
import { TribeModule } from './modules/tribe/tribe.module';
import { WebhooksModule } from './modules/webhooks/webhooks.module';
import { UsersModule } from './modules/users/users.module';

/** Feature modules, in no particular order; each owns its routes, tables and Redis keys. */
export const FEATURE_MODULES: Type[] = [
  StatusModule,
  ConfigurationModule,
  AdminApiModule,
  InboxModule,
  ConfigsModule,
  PresetsModule,
  QuotesModule,
  WebhooksModule,
  ConnectionModule,
  ApeKeyModule,
  UsersModule,
  ResultsModule,
  LeaderboardModule,
  PsasModule,
  PublicStatsModule,
  PortabilityModule,
  TribeModule,
];

export interface AppModuleOptions {
  env: AppEnv;
  clock?: Clock;
  /** More modules to mount (tests mount probe routes through this). */
  extraModules?: Type[];
  /** Where log lines go (stdout by default; tests capture them). */
  logDestination?: DestinationStream;
}

@Module({})
export class AppModule {
  static forRoot({ env, clock, extraModules = [], logDestination }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggingModule.forRoot(env, logDestination),
        ConfigModule.forRoot(env, clock),
        DatabaseModule,
        RedisModule,
        ServerConfigurationModule,
        AuthModule,
        CaptchaModule,
        AccountLifecycleModule,
        ScheduleModule.forRoot(),
        ...FEATURE_MODULES,
        ...extraModules,
      ],
      providers: [
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_PIPE, useClass: AppValidationPipe },
      ],
    };
  }
}
