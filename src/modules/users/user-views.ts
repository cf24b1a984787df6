import { hasPremium } from '../../common/premium';
import type { ServerConfiguration } from '../../config/server-configuration.schema';
import type { UserRecord } from './users.repository';

/** Spec "Rules for premium" rules 1 and 2: the server-wide switch and the user's expiry. */
export function isPremium(config: ServerConfiguration, user: UserRecord, now: number): boolean {
  return config.users.premium.enabled && hasPremium(user.premiumExpiresAt, now);
}

/** Spec "Streak". `hourOffset` is absent until set (the original client checks for that). */
export function streakView(user: UserRecord) {
  return {
    length: user.streakLength,
    maxLength: user.streakMaxLength,
    lastResultTimestamp: user.streakLastResultAt ?? 0,
    ...(user.streakHourOffset === null ? {} : { hourOffset: user.streakHourOffset }),
  };
}

export function typingStats(user: UserRecord) {
  return {
    completedTests: user.completedTests,
    startedTests: user.startedTests,
    timeTyping: user.timeTyping,
  };
}

/** Spec "Profile details" as stored. */
export function profileDetails(user: UserRecord) {
  return {
    bio: user.bio ?? '',
    keyboard: user.keyboard ?? '',
    socialProfiles: user.socialProfiles,
    showActivityOnPublicProfile: user.showActivity,
  };
}

/** The original client reads a linked chat account as discordId/discordAvatar (absent, not null, when unlinked). */
export function discordFields(user: UserRecord): { discordId?: string; discordAvatar?: string } {
  if (user.chatId === null) return {};
  return user.chatAvatar === null
    ? { discordId: user.chatId }
    : { discordId: user.chatId, discordAvatar: user.chatAvatar };
}
