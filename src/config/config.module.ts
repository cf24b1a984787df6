import { Global, Module, type DynamicModule } from '@nestjs/common';
import { Clock, SystemClock } from '../common/clock';
import { APP_ENV, type AppEnv } from './env';

/** Process environment and the clock, available everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(env: AppEnv, clock: Clock = new SystemClock()): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_ENV, useValue: env },
        { provide: Clock, useValue: clock },
      ],
      exports: [APP_ENV, Clock],
    };
  }
}
