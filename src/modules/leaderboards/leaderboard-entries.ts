import { hasPremium } from '../../common/premium';
import type { ResultSavedEvent } from '../results/result-hooks';
import type { Int } from '../../common/int';

/**
 * Entry shapes of the three boards (contract facts §12.10, with the spec's `chatId`/`chatAvatar`) and the rules every
 * board read shares: optional facts left out rather than null, `isPremium` only while premium is enabled
 * server-wide (spec "Rules for premium" rule 3), friends boards renumbered.
 */
export interface EntryIdentity {
  uid: string;
  name: string;
  badgeId?: Int;
  chatId?: string;
  chatAvatar?: string;
  isPremium?: boolean;
  /** On a friends board (FriendsRanked): the place on the whole board, and among the friends (= `rank`). */
  globalRank?: Int;
  friendsRank?: Int;
}

/** All-time and daily entries. */
export interface SpeedEntry extends EntryIdentity {
  wpm: number;
  acc: number;
  raw: number;
  consistency: number;
  timestamp: Int;
  rank: Int;
}

/** Weekly XP entries (spec "Leaderboard response"). */
export interface XpEntry extends EntryIdentity {
  totalXp: Int;
  timeTypedSeconds: number;
  lastActivityTimestamp: Int;
  rank: Int;
}

/** On a friends board `rank` is the place among friends; the place on the whole board is kept as `globalRank`. */
export type FriendsRanked<T> = T & { globalRank: Int; friendsRank: Int };

export interface BoardPage<T> {
  entries: T[];
  count: Int;
  pageSize: Int;
}

export interface Paging {
  page: number;
  pageSize: Int;
}

/** Identity facts as stored with a daily or weekly entry (or read from the user row). */
export interface IdentitySource {
  uid: string;
  name: string;
  badgeId?: Int | null;
  chatId?: string | null;
  chatAvatar?: string | null;
  isPremium?: boolean | null;
}

/**
 * Every entry has the same shape (absent facts are `undefined`, which JSON leaves out). The daily and weekly boards add
 * their fields with `Object.assign(identity(...), {...})`, not with object spread (the all-time board, the busiest,
 * builds its entries whole with the helpers below): a CPU profile of `GET /leaderboards` showed
 * `{ ...identity(...), wpm, ... }` costing about 3 µs per row (a slow path of V8's spread clone), against 0.2 µs.
 */
export function identity(source: IdentitySource, premiumEnabled: boolean): EntryIdentity {
  return {
    uid: source.uid,
    name: source.name,
    badgeId: numberOrAbsent(source.badgeId),
    chatId: textOrAbsent(source.chatId),
    chatAvatar: textOrAbsent(source.chatAvatar),
    isPremium: premiumOrAbsent(source.isPremium, premiumEnabled),
  };
}

/** An entry's optional identity facts: absent (`undefined`) unless of their type; `isPremium` only when enabled. */
export const numberOrAbsent = (value: unknown): Int | undefined =>
  typeof value === 'number' ? value : undefined;
export const textOrAbsent = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;
export const premiumOrAbsent = (isPremium: boolean | null | undefined, premiumEnabled: boolean) =>
  premiumEnabled ? isPremium === true : undefined;

/** The identity of a daily or weekly entry as stored in Redis (JSON written by `storedIdentity`). */
export function storedEntryIdentity(
  uid: string,
  stored: Record<string, unknown>,
  premiumEnabled: boolean,
): EntryIdentity {
  return identity(
    {
      uid,
      name: String(stored.name ?? ''),
      badgeId: stored.badgeId as number | undefined,
      chatId: stored.chatId as string | undefined,
      chatAvatar: stored.chatAvatar as string | undefined,
      isPremium: stored.isPremium === true,
    },
    premiumEnabled,
  );
}

/**
 * A friends board from the friends' entries in global order: renumbered 1..n, paged, `count` = friends on the
 * board (contract facts: paging applies to the friends list).
 */
export function friendsPage<T extends { rank: number }>(
  inGlobalOrder: T[],
  { page, pageSize }: Paging,
): { entries: FriendsRanked<T>[]; count: number } {
  const ranked = inGlobalOrder.map((entry, i) => ({
    ...entry,
    rank: i + 1,
    globalRank: entry.rank,
    friendsRank: i + 1,
  }));
  return { entries: ranked.slice(page * pageSize, (page + 1) * pageSize), count: ranked.length };
}

/** The caller's own entry on a friends board, or null when they are not on it. */
export function friendsRankOf<T extends { rank: number; uid: string }>(
  inGlobalOrder: T[],
  uid: string,
): FriendsRanked<T> | null {
  const index = inGlobalOrder.findIndex((entry) => entry.uid === uid);
  const entry = inGlobalOrder[index];
  if (!entry) return null;
  return { ...entry, rank: index + 1, globalRank: entry.rank, friendsRank: index + 1 };
}

/** Reads a typed field of a stored JSON entry. */
export function num(entry: Record<string, unknown>, key: string): number {
  const value = entry[key];
  return typeof value === 'number' ? value : Number(value ?? 0);
}

/** Identity facts kept with a daily or weekly entry, as they are when the result is saved. */
export function storedIdentity(
  account: ResultSavedEvent['account'],
  premiumEnabled: boolean,
  now: number,
): { badgeId?: Int; chatId?: string; chatAvatar?: string; isPremium?: true } {
  return {
    ...(account.selectedBadgeId === undefined ? {} : { badgeId: account.selectedBadgeId }),
    ...(account.chatId === null ? {} : { chatId: account.chatId }),
    ...(account.chatAvatar === null ? {} : { chatAvatar: account.chatAvatar }),
    ...(premiumEnabled && hasPremium(account.premiumExpiresAt, now) ? { isPremium: true as const } : {}),
  };
}
