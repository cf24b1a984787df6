import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import { toFriend } from './friends.mapper';
import { FriendsRepository } from './friends.repository';
import type { Friend, TimePbRow } from './friends.types';

@Injectable()
export class FriendsService {
  constructor(
    private readonly repository: FriendsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
  ) {}

  /**
   * `GET /users/friends`: the users of the caller's accepted connections, then the caller (last, without connection
   * metadata). Like the original, the caller appears only next to at least one friend: no friends, empty list.
   */
  async list(uid: string): Promise<Friend[]> {
    const friends = await this.repository.acceptedFriends(uid);
    if (friends.length === 0) return [];
    const self = await this.repository.self(uid);
    const rows = self ? [...friends, self] : friends;
    const pbs = new Map<string, { top15?: TimePbRow; top60?: TimePbRow }>();
    for (const pb of await this.repository.topTimePbs(rows.map((r) => r.uid))) {
      const entry = pbs.get(pb.uid) ?? {};
      if (pb.mode2 === '15') entry.top15 = pb;
      else entry.top60 = pb;
      pbs.set(pb.uid, entry);
    }
    const premiumEnabled = (await this.configuration.get()).users.premium.enabled;
    const now = this.clock.now();
    return rows.map((row) => toFriend(row, pbs.get(row.uid) ?? {}, premiumEnabled, now));
  }
}
