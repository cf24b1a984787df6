import type { BlocklistEntry } from '../../users/blocklist';
import type { PersonalBestRow as StoredPersonalBestRow } from '../../users/personal-bests';
import type { ApeKeyHashScheme } from '../../ape-keys/ape-key-secret';
import type { HoldReason } from '../../results/domain/anti-cheat/review-ceiling';

/**
 * What the write path takes: our own rows, already mapped from a source (the original platform's dump, or our own
 * account export) and validated. Column names are the tables'; each record keeps where it came from (`source`) so a
 * refused one can be reported. The readers decide nothing about idempotency or order: the writer does.
 */
export interface SourceRef {
  collection: string;
  /** The source document's id, as text (for the rejects file). */
  id: string;
}

export interface UserRow {
  uid: string;
  name: string;
  email: string;
  added_at: number;
  banned: boolean;
  lb_opt_out: boolean;
  last_name_change_at: number | null;
  completed_tests: number;
  started_tests: number;
  time_typing: number;
  xp: number;
  streak_length: number;
  streak_max_length: number;
  streak_last_result_at: number | null;
  streak_hour_offset: number | null;
  last_result_hashes: string[];
  chat_id: string | null;
  chat_avatar: string | null;
  profile_bio: string | null;
  profile_keyboard: string | null;
  profile_social_profiles: Record<string, string>;
  profile_show_activity: boolean;
  inventory_badges: { id: number; selected?: boolean }[];
  favorite_quotes: Record<string, string[]>;
  premium_start_at: number | null;
  premium_expires_at: number | null;
  lb_memory: Record<string, Record<string, Record<string, number>>>;
  can_report: boolean;
  can_manage_ape_keys: boolean;
}

export interface PersonalBestRow extends StoredPersonalBestRow {
  /**
   * The result this best comes from when it is held for review or rejected (then on no board); absent or null
   * otherwise. Only an account's own bests, never a tag's.
   */
  held_result_id?: string | null;
}

export interface TagRecord {
  id: string;
  name: string;
  created_at: number;
  personalBests: PersonalBestRow[];
}

export interface ThemeRow {
  id: string;
  name: string;
  colors: string[] | Record<string, string>;
  created_at: number;
}

export interface MailRow {
  id: string;
  subject: string;
  body: string;
  rewards: unknown[];
  timestamp: number;
  read: boolean;
}

export interface FilterPresetRow {
  id: string;
  name: string;
  filters: Record<string, unknown>;
  created_at: number;
}

export interface QuoteRatingByUser {
  language: string;
  quote_id: number;
  rating: number;
}

/** A user and everything nested in their document: written together, in one transaction, or not at all. */
export interface UserBundle {
  user: UserRow;
  personalBests: PersonalBestRow[];
  tags: TagRecord[];
  themes: ThemeRow[];
  mail: MailRow[];
  filterPresets: FilterPresetRow[];
  /** Days since the epoch (UTC) → completed tests; null: the source had none, rebuild it from the results. */
  testActivity: { day: number; tests: number }[] | null;
  permissions: ('admin' | 'quoteMod')[];
  quoteRatings: QuoteRatingByUser[];
  /**
   * Add the user's quote ratings to the quotes' aggregates here. An account export carries only the user's own
   * ratings; a dump of the original carries its aggregates too (so false: they would count twice).
   */
  countQuoteRatings?: boolean;
}

export interface ResultRow {
  id: string;
  uid: string;
  timestamp: number;
  /** Null: take the user's current name (results of old versions of the original do not hold it). */
  name: string | null;
  wpm: number;
  raw_wpm: number;
  acc: number;
  consistency: number;
  key_consistency: number | null;
  char_stats: number[] | null;
  mode: string;
  mode2: string;
  quote_length: number | null;
  language: string;
  difficulty: string;
  punctuation: boolean;
  numbers: boolean;
  lazy_mode: boolean;
  blind_mode: boolean;
  bailed_out: boolean;
  funbox: string[];
  tags: string[];
  test_duration: number;
  afk_duration: number;
  incomplete_test_seconds: number;
  restart_count: number;
  is_pb: boolean;
  chart_data: unknown;
  key_spacing_stats: unknown;
  key_duration_stats: unknown;
  xp: number;
  stop_on_letter: boolean;
  /**
   * Not a column: the result is held for review as the live route holds one (a `result_reviews` row written with it,
   * its personal best off the boards). Only a writer that derives the account's state from its results reads it.
   */
  held?: ResultHold;
}

/** Why and since when an imported result waits for a moderator. */
export interface ResultHold {
  reasons: HoldReason[];
  heldAt: number;
}

export interface ConfigRow {
  uid: string;
  config: Record<string, unknown>;
  updated_at: number;
}

export interface PresetRow {
  id: string;
  uid: string;
  name: string;
  config: Record<string, unknown>;
  setting_groups: string[] | null;
  created_at: number;
}

export interface ConnectionRow {
  id: string;
  initiator_uid: string;
  receiver_uid: string;
  status: 'pending' | 'accepted' | 'rejected' | 'blocked';
  created_at: number;
  last_modified: number;
}

export interface ApeKeyRow {
  id: string;
  uid: string;
  name: string;
  enabled: boolean;
  hash: string;
  hash_scheme: ApeKeyHashScheme;
  created_on: number;
  modified_on: number;
  last_used_on: number;
}

export interface NewQuoteRow {
  id: string;
  uid: string;
  text: string;
  source: string;
  language: string;
  submitted_at: number;
}

export interface QuoteRatingRow {
  id: string;
  language: string;
  quote_id: number;
  ratings: number;
  total_rating: number;
}

export interface ReportRow {
  id: string;
  uid: string;
  type: 'quote' | 'user';
  content_id: string;
  quote_id: number | null;
  quote_language: string | null;
  reason: string;
  comment: string;
  created_at: number;
}

export interface PsaRow {
  id: string;
  message: string;
  date: number | null;
  level: number | null;
  sticky: boolean | null;
  created_at: number;
}

/** A result in the review queue (issue 23); the deciding moderator is not carried (null). */
export interface ResultReviewRow {
  result_id: string;
  uid: string;
  status: 'held' | 'approved' | 'rejected';
  reasons: unknown;
  key_timing: unknown;
  result: unknown;
  held_at: number;
  decided_by: null;
  decided_at: number | null;
  decision_reason: string | null;
}

export interface PermissionRow {
  uid: string;
  permission: 'admin' | 'quoteMod';
  granted_at: number;
}

/** Every kind of record the writer takes, by the name the summary and the rejects file use. */
export interface ImportRecords {
  users: UserBundle;
  results: ResultRow;
  configs: ConfigRow;
  presets: PresetRow;
  connections: ConnectionRow;
  apeKeys: ApeKeyRow;
  blocklist: BlocklistEntry & { created_at: number };
  newQuotes: NewQuoteRow;
  quoteRatings: QuoteRatingRow;
  reports: ReportRow;
  psas: PsaRow;
  permissions: PermissionRow;
  /** Our account export only: the original has no review queue. */
  resultReviews: ResultReviewRow;
}
export type RecordKind = keyof ImportRecords;

/** A record with the source it came from. */
export interface Sourced<T> {
  source: SourceRef;
  row: T;
}

/** Something left out of or changed in an otherwise imported document (written to the rejects file, never silent). */
export interface Adjustment {
  path: string;
  action: 'left out' | 'changed';
  reason: string;
  value?: unknown;
}
