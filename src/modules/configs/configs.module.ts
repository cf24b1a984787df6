import { Module } from '@nestjs/common';
import { ConfigsController } from './configs.controller';
import { ConfigsRepository } from './configs.repository';
import { ConfigsService } from './configs.service';

@Module({
  controllers: [ConfigsController],
  providers: [ConfigsRepository, ConfigsService],
  exports: [ConfigsService],
})
export class ConfigsModule {}
