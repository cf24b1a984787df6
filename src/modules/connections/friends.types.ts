import type { Int } from '../../common/int';

/** A personal best record as the original platform shows it (`top15`/`top60` of a friend). */
export interface FriendPersonalBest {
  acc: number;
  consistency: number;
  difficulty: string;
  lazyMode: boolean;
  language: string;
  punctuation: boolean;
  numbers: boolean;
  raw: number;
  wpm: number;
  timestamp: Int;
}

/** One entry of `GET /users/friends` (spec: uid, name, xp, streak, isPremium, last activity, connection metadata). */
export interface Friend {
  uid: string;
  name: string;
  chatId?: string;
  chatAvatar?: string;
  startedTests: Int;
  completedTests: Int;
  timeTyping: number;
  xp: Int;
  streak: { length: Int; maxLength: Int };
  lastActivityTimestamp?: Int;
  banned: boolean;
  lbOptOut: boolean;
  badgeId?: Int;
  isPremium?: boolean;
  top15?: FriendPersonalBest;
  top60?: FriendPersonalBest;
  /** Absent on the caller's own entry. */
  connectionId?: string;
  lastModified?: Int;
}

export interface FriendRow {
  uid: string;
  name: string;
  chat_id: string | null;
  chat_avatar: string | null;
  started_tests: number;
  completed_tests: number;
  time_typing: number;
  xp: Int;
  streak_length: number;
  streak_max_length: number;
  last_result_at: number | null;
  banned: boolean;
  lb_opt_out: boolean;
  inventory_badges: unknown;
  premium_expires_at: number | null;
  connection_id: string | null;
  last_modified: number | null;
}

export interface TimePbRow {
  uid: string;
  mode2: string;
  acc: number;
  consistency: number;
  difficulty: string;
  lazy_mode: boolean;
  language: string;
  punctuation: boolean;
  numbers: boolean;
  raw: number;
  wpm: number;
  timestamp: Int;
}
