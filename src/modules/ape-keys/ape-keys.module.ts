import { Module } from '@nestjs/common';
import { ApeKeyVerifierService } from './ape-key-verifier.service';
import { ApeKeysController } from './ape-keys.controller';
import { ApeKeysRepository } from './ape-keys.repository';
import { ApeKeysService } from './ape-keys.service';

/** ApeKey management routes and the verifier the auth guard calls for the `ApeKey` scheme. */
@Module({
  controllers: [ApeKeysController],
  providers: [ApeKeysRepository, ApeKeysService, ApeKeyVerifierService],
  exports: [ApeKeysService],
})
export class ApeKeyModule {}
