import { Global, Module, type DynamicModule } from '@nestjs/common';
import { Clock, SystemClock } from '../common/clock';
import { APP_ENV, type AppEnv } from './env';
import { ServerConfigurationRepository } from './server-configuration.repository';
import { ServerConfigurationService } from './server-configuration.service';

/** Process environment, the clock, and the server configuration document, available everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(env: AppEnv, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_ENV, useValue: env },
        { provide: Clock, useValue: clock },
        ServerConfigurationRepository,
        ServerConfigurationService,
      ],
      exports: [APP_ENV, Clock, ServerConfigurationService],
    };
  }
}
