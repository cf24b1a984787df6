import { Inject, Injectable } from '@nestjs/common';
import { TRIBE_PROTOCOL_VERSION, type TribeTimings } from './domain/limits';
import { TribePresenceRepository } from './tribe-presence.repository';
import { TribeRoomRepository } from './tribe-room.repository';
import { TRIBE_TIMINGS } from './tribe-room.service';

/** The client's `SystemStats`: `[online, { mm, custom }, queueLengths, version]`. */
export interface SystemStats {
  pingStart: number;
  stats: [
    number,
    { mm: [number, number, number, number]; custom: [number, number] },
    [number, number, number, number],
    string,
  ];
}

/** Every client asks every 15 s; one replica answers them all from one read a second. */
const CACHE_MS = 1_000;

/**
 * `system_stats`: players online (connections held by live replicas), rooms (all custom rooms, and the public ones,
 * which the client shows under "Create room" and "Browse public rooms"), the version. The branch's matchmaking page
 * is hidden and sends no queue event, so its four queues are reported empty.
 */
@Injectable()
export class TribeStatsService {
  private cached: { at: number; stats: SystemStats['stats'] } | null = null;

  constructor(
    private readonly presence: TribePresenceRepository,
    private readonly rooms: TribeRoomRepository,
    @Inject(TRIBE_TIMINGS) private readonly timings: TribeTimings,
  ) {}

  async stats(): Promise<SystemStats> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > CACHE_MS) {
      const { alive } = await this.presence.replicas(now - this.timings.deadAfterMs);
      const [online, counts] = await Promise.all([this.presence.count(alive), this.rooms.counts()]);
      this.cached = {
        at: now,
        stats: [
          online,
          { mm: [0, 0, 0, 0], custom: [counts.rooms, counts.publicRooms] },
          [0, 0, 0, 0],
          TRIBE_PROTOCOL_VERSION,
        ],
      };
    }
    return { pingStart: now, stats: this.cached.stats };
  }
}
