import { Global, Module } from '@nestjs/common';
import { ServerConfigurationRepository } from './server-configuration.repository';
import { ServerConfigurationService } from './server-configuration.service';

/**
 * The server configuration document (PostgreSQL, cached, changes told to other replicas through Redis), available
 * everywhere: it stands on the stores, so it lives above `infra/`, not in `config/` (which holds only the schemas).
 */
@Global()
@Module({
  providers: [ServerConfigurationRepository, ServerConfigurationService],
  exports: [ServerConfigurationService],
})
export class ServerConfigurationModule {}
