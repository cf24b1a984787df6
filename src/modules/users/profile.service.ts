import { Injectable, Logger } from '@nestjs/common';
import { AppError, MESSAGES } from '../../common/app-error';
import { Clock } from '../../common/clock';
import { ServerConfigurationService } from '../../common/server-configuration/server-configuration.service';
import type { Int } from '../../common/int';
import {
  AllTimeLeaderboardService,
  type ProfileLeaderboards,
} from '../leaderboards/all-time-leaderboard.service';
import { groupPersonalBests, profilePersonalBests } from './personal-bests';
import { sanitizeText } from './sanitize';
import {
  currentTestActivity,
  utcDay,
  CURRENT_ACTIVITY_DAYS,
  type CurrentTestActivity,
} from './test-activity';
import { discordFields, isPremium, profileDetails, typingStats } from './user-views';
import { UserStatsRepository } from './user-stats.repository';
import {
  UsersRepository,
  type Badge,
  type ProfileChanges,
  type SocialProfiles,
  type UserRecord,
} from './users.repository';
import type { UpdateProfileDto } from './dto/profile.dto';

/**
 * Spec "Profile", as the API document shows it and the route serialises it (compiled from this type): a banned user's
 * profile stops at `isPremium`; the others add their inventory, details and all-time ranks, and their activity when
 * they show it.
 */
export interface PublicProfile {
  uid: string;
  name: string;
  banned: boolean;
  addedAt: Int;
  typingStats: ReturnType<typeof typingStats>;
  personalBests: ReturnType<typeof profilePersonalBests>;
  chatId: string | null;
  chatAvatar: string | null;
  discordId?: string;
  discordAvatar?: string;
  xp: Int;
  streak: Int;
  maxStreak: Int;
  lbOptOut: boolean;
  isPremium: boolean;
  inventory?: { badges: Badge[] };
  details?: ReturnType<typeof profileDetails>;
  allTimeLbs?: ProfileLeaderboards;
  testActivity?: CurrentTestActivity;
}

export interface ProfileResult {
  banned: boolean;
  profile: PublicProfile;
}

/** Public profiles (spec "Profile") and the writable details (spec "Profile details"). */
@Injectable()
export class ProfileService {
  private readonly logger = new Logger(ProfileService.name);

  constructor(
    private readonly users: UsersRepository,
    private readonly stats: UserStatsRepository,
    private readonly configuration: ServerConfigurationService,
    private readonly clock: Clock,
    private readonly leaderboards: AllTimeLeaderboardService,
  ) {}

  async getProfile(uidOrName: string, isUid: boolean): Promise<ProfileResult> {
    const user = isUid ? await this.users.findByUid(uidOrName) : await this.users.findByName(uidOrName);
    if (!user) throw new AppError(404, MESSAGES.userNotFound);
    const now = this.clock.now();
    // The reads that need only the uid run at once (a banned user's profile needs only the bests).
    const [config, bests, activityRows, allTimeLbs] = await Promise.all([
      this.configuration.get(),
      this.stats.personalBests(user.uid),
      user.banned || !user.showActivity
        ? undefined
        : this.stats.testActivity(user.uid, utcDay(now) - CURRENT_ACTIVITY_DAYS + 1),
      user.banned ? undefined : this.leaderboards.profileRanks(user.uid),
    ]);
    const base: PublicProfile = {
      uid: user.uid,
      name: user.name,
      banned: user.banned,
      addedAt: user.addedAt,
      typingStats: typingStats(user),
      personalBests: profilePersonalBests(groupPersonalBests(bests)),
      chatId: user.chatId,
      chatAvatar: user.chatAvatar,
      ...discordFields(user),
      xp: user.xp,
      streak: user.streakLength,
      maxStreak: user.streakMaxLength,
      lbOptOut: user.lbOptOut,
      isPremium: isPremium(config, user, now),
    };
    // A banned user's profile holds only the base fields.
    if (user.banned || allTimeLbs === undefined) return { banned: true, profile: base };
    const activity = activityRows ? currentTestActivity(activityRows, now) : undefined;
    return {
      banned: false,
      profile: {
        ...base,
        inventory: { badges: user.badges },
        details: profileDetails(user),
        allTimeLbs,
        ...(activity ? { testActivity: activity } : {}),
      },
    };
  }

  /**
   * Only the given fields change; text is sanitised; the selected badge must be owned (at most one selected). The
   * answer is the original's: the sanitised fields sent, `socialProfiles` always (`{}` when not sent), nothing else
   * (its client's strict schema refuses other keys, such as `selectedBadgeId`).
   */
  async updateProfile(uid: string, body: UpdateProfileDto) {
    return this.users.inTransaction(async (trx) => {
      const user = await this.users.lock(uid, trx);
      if (!user) throw new AppError(404, MESSAGES.userNotFound);
      if (user.banned) throw new AppError(403, 'Banned users cannot update their profile');
      const changes: ProfileChanges = {};
      const answer: ProfileUpdateAnswer = { socialProfiles: {} };
      if (body.bio !== undefined) changes.bio = answer.bio = sanitizeText(body.bio);
      if (body.keyboard !== undefined) changes.keyboard = answer.keyboard = sanitizeText(body.keyboard);
      if (body.socialProfiles !== undefined) {
        const merged = { ...user.socialProfiles };
        for (const [platform, value] of Object.entries(body.socialProfiles)) {
          if (typeof value !== 'string') continue;
          const clean = sanitizeText(value);
          merged[platform as keyof SocialProfiles] = clean;
          answer.socialProfiles[platform as keyof SocialProfiles] = clean;
        }
        changes.socialProfiles = merged;
      }
      if (body.showActivityOnPublicProfile !== undefined) {
        changes.showActivity = answer.showActivityOnPublicProfile = body.showActivityOnPublicProfile;
      }
      if (body.selectedBadgeId !== undefined) changes.badges = selectBadge(user, body.selectedBadgeId);
      await this.users.updateProfile(uid, changes, trx);
      this.logger.log({ uid, fields: Object.keys(changes) }, 'profile updated');
      return answer;
    });
  }
}

/** Contract facts U33: the response of `PATCH /users/profile`. */
interface ProfileUpdateAnswer {
  bio?: string;
  keyboard?: string;
  socialProfiles: SocialProfiles;
  showActivityOnPublicProfile?: boolean;
}

function selectBadge(user: UserRecord, badgeId: number): Badge[] {
  if (badgeId !== -1 && !user.badges.some((b) => b.id === badgeId)) {
    throw new AppError(404, 'Badge not found');
  }
  return user.badges.map((b) => (b.id === badgeId ? { id: b.id, selected: true } : { id: b.id }));
}
