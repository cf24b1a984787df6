import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_ENV, type AppEnv } from '../../config/env';
import { createDatabase, DATABASE, type Database } from './database';

@Global()
@Module({
  providers: [
    {
      provide: DATABASE,
      inject: [APP_ENV],
      useFactory: (env: AppEnv): Database =>
        createDatabase({
          url: env.databaseUrl,
          poolMax: env.databasePoolMax,
          statementTimeoutMs: env.databaseStatementTimeoutMs,
          connectTimeoutMs: env.databaseConnectTimeoutMs,
        }),
    },
  ],
  exports: [DATABASE],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DATABASE) private readonly db: Database) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.destroy();
  }
}
