import { hasPremium } from '../../common/premium';
import type { Friend, FriendPersonalBest, FriendRow, TimePbRow } from './friends.types';

/** The selected badge of an `inventory_badges` value (`[{id, selected?}]`); at most one is selected. */
export function selectedBadgeId(badges: unknown): number | undefined {
  if (!Array.isArray(badges)) return undefined;
  for (const badge of badges as unknown[]) {
    if (typeof badge !== 'object' || badge === null) continue;
    const { id, selected } = badge as { id?: unknown; selected?: unknown };
    if (selected === true && typeof id === 'number') return id;
  }
  return undefined;
}

export function toPersonalBest(row: TimePbRow): FriendPersonalBest {
  return {
    acc: row.acc,
    consistency: row.consistency,
    difficulty: row.difficulty,
    lazyMode: row.lazy_mode,
    language: row.language,
    punctuation: row.punctuation,
    numbers: row.numbers,
    raw: row.raw,
    wpm: row.wpm,
    timestamp: row.timestamp,
  };
}

/**
 * A friend entry. Optional facts the user does not have are left out rather than sent as null; `isPremium` is left
 * out entirely while premium is disabled server-wide (spec "Rules for premium" rule 3).
 */
export function toFriend(
  row: FriendRow,
  pbs: { top15?: TimePbRow; top60?: TimePbRow },
  premiumEnabled: boolean,
  now: number,
): Friend {
  const friend: Friend = {
    uid: row.uid,
    name: row.name,
    startedTests: row.started_tests,
    completedTests: row.completed_tests,
    timeTyping: row.time_typing,
    xp: row.xp,
    streak: { length: row.streak_length, maxLength: row.streak_max_length },
    banned: row.banned,
    lbOptOut: row.lb_opt_out,
  };
  if (row.chat_id !== null) friend.chatId = row.chat_id;
  if (row.chat_avatar !== null) friend.chatAvatar = row.chat_avatar;
  if (row.last_result_at !== null) friend.lastActivityTimestamp = row.last_result_at;
  const badgeId = selectedBadgeId(row.inventory_badges);
  if (badgeId !== undefined) friend.badgeId = badgeId;
  if (premiumEnabled) friend.isPremium = hasPremium(row.premium_expires_at, now);
  if (pbs.top15) friend.top15 = toPersonalBest(pbs.top15);
  if (pbs.top60) friend.top60 = toPersonalBest(pbs.top60);
  if (row.connection_id !== null) friend.connectionId = row.connection_id;
  if (row.last_modified !== null) friend.lastModified = row.last_modified;
  return friend;
}
