import { Module } from '@nestjs/common';
import { InboxController } from './inbox.controller';
import { InboxRepository } from './inbox.repository';
import { InboxService } from './inbox.service';

@Module({
  controllers: [InboxController],
  providers: [InboxRepository, InboxService],
  exports: [InboxService],
})
export class InboxModule {}
