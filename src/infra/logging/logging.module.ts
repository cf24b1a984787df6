import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { DestinationStream } from 'pino';
import type { AppEnv } from '../../config/env';
import { AppLogger, createRootLogger } from './app-logger';

/** The application's logger (app-logger.ts), available everywhere; createApp makes it Nest's logger too. */
@Global()
@Module({})
export class LoggingModule {
  static forRoot(env: AppEnv, destination?: DestinationStream): DynamicModule {
    return {
      module: LoggingModule,
      providers: [{ provide: AppLogger, useValue: new AppLogger(createRootLogger(env, destination)) }],
      exports: [AppLogger],
    };
  }
}
