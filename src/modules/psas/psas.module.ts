import { Module } from '@nestjs/common';
import { PsasController } from './psas.controller';
import { PsasRepository } from './psas.repository';
import { PsasService } from './psas.service';

@Module({
  controllers: [PsasController],
  providers: [PsasRepository, PsasService],
  exports: [PsasService],
})
export class PsasModule {}
