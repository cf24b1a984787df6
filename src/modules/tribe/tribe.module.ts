import { Module } from '@nestjs/common';
import { AccountRepository } from '../../common/auth/account.repository';
import { APP_ENV, type AppEnv } from '../../config/env';
import { StatusModule } from '../status/status.module';
import { DEFAULT_TIMINGS, type TribeTimings } from './domain/limits';
import { TribeEventRunner } from './tribe-events';
import { TribeHub } from './tribe-hub';
import { TribeIdentityService } from './tribe-identity.service';
import { TribePresenceRepository } from './tribe-presence.repository';
import { TribeReplicaService } from './tribe-replica.service';
import { TribeRoomGateway } from './tribe-room.gateway';
import { TribeRoomRepository } from './tribe-room.repository';
import { TRIBE_TIMINGS, TribeRoomService } from './tribe-room.service';
import { TribeScheduleRepository } from './tribe-schedule.repository';
import { TribeSessionService } from './tribe-session.service';
import { TribeStatsService } from './tribe-stats.service';
import { TribeGateway } from './tribe.gateway';

/**
 * Tribe, the original client's multiplayer races: a socket.io gateway (its events), rooms in Redis shared by every
 * replica, room timers run once across replicas, and the room state machine in `domain/`. The socket server itself
 * is installed by `configureTribe` (tribe-io.adapter.ts) when the HTTP application is built.
 */
@Module({
  imports: [StatusModule],
  providers: [
    {
      provide: TRIBE_TIMINGS,
      inject: [APP_ENV],
      useFactory: (env: AppEnv): TribeTimings => ({ ...DEFAULT_TIMINGS, ...env.tribe.timings }),
    },
    AccountRepository,
    TribeHub,
    TribeRoomRepository,
    TribeScheduleRepository,
    TribePresenceRepository,
    TribeRoomService,
    TribeSessionService,
    TribeIdentityService,
    TribeStatsService,
    TribeEventRunner,
    TribeReplicaService,
    TribeGateway,
    TribeRoomGateway,
  ],
})
export class TribeModule {}
