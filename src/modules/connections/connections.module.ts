import { Module } from '@nestjs/common';
import { ConnectionsController } from './connections.controller';
import { ConnectionsRepository } from './connections.repository';
import { ConnectionsService } from './connections.service';
import { FriendsController } from './friends.controller';
import { FriendsRepository } from './friends.repository';
import { FriendsService } from './friends.service';

/** Friend connections and the friends list. Exports ConnectionsService (`friendUids` for friends-only boards). */
@Module({
  controllers: [ConnectionsController, FriendsController],
  providers: [ConnectionsRepository, ConnectionsService, FriendsRepository, FriendsService],
  exports: [ConnectionsService],
})
export class ConnectionModule {}
