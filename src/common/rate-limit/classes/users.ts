import { DAY, HOUR, MINUTE, type RateLimitClass } from './time';

/**
 * Users, tags, themes, favourites, chat link and inbox (spec "Limits": user endpoints 30-60 per minute). Account-wide
 * and mail-sending operations keep the original platform's stricter windows.
 */
export const USERS_LIMITS = {
  userGet: { windowMs: MINUTE, max: 60 },
  // Per uid of the token: an account is created once; the original's figure (contract facts §4).
  userSignup: { windowMs: DAY, max: 2 },
  userCheckName: { windowMs: MINUTE, max: 60 },
  userForgotPasswordEmail: { windowMs: MINUTE, max: 1 },
  userDelete: { windowMs: DAY, max: 3 },
  userReset: { windowMs: DAY, max: 3 },
  userUpdateName: { windowMs: DAY, max: 3 },
  userUpdateEmail: { windowMs: HOUR, max: 60 },
  userRevokeAllTokens: { windowMs: HOUR, max: 10 },
  userOptOutOfLeaderboards: { windowMs: HOUR, max: 10 },
  userProfileGet: { windowMs: MINUTE, max: 60 },
  userProfileUpdate: { windowMs: MINUTE, max: 30 },
  userStreak: { windowMs: MINUTE, max: 60 },
  setStreakHourOffset: { windowMs: HOUR, max: 5 },
  userTestActivity: { windowMs: MINUTE, max: 60 },
  userCurrentTestActivity: { windowMs: MINUTE, max: 60 },
  quoteFavoriteGet: { windowMs: MINUTE, max: 60 },
  quoteFavoriteUpdate: { windowMs: MINUTE, max: 30 },
  userTagsGet: { windowMs: MINUTE, max: 60 },
  userTagsUpdate: { windowMs: MINUTE, max: 30 },
  userCustomThemeGet: { windowMs: MINUTE, max: 60 },
  userCustomThemeUpdate: { windowMs: MINUTE, max: 30 },
  userChatLink: { windowMs: HOUR, max: 15 },
  userChatUnlink: { windowMs: HOUR, max: 15 },
  userMailGet: { windowMs: MINUTE, max: 60 },
  userMailUpdate: { windowMs: MINUTE, max: 60 },
  // Routes the spec does not list: the original platform's classes (contract facts §4).
  userUpdateLBMemory: { windowMs: MINUTE, max: 60 },
  userClearPB: { windowMs: HOUR, max: 60 },
  userCustomFilterAdd: { windowMs: HOUR, max: 60 },
  userCustomFilterRemove: { windowMs: HOUR, max: 60 },
  // One verification mail per 15 minutes: each one is a mail the identity provider may throttle us for.
  userRequestVerificationEmail: { windowMs: 15 * MINUTE, max: 1 },
} satisfies Record<string, RateLimitClass>;
