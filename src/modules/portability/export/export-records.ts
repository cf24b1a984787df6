import type {
  AccountData,
  AccountPersonalBestData,
  ApeKeyData,
  ApprovedQuoteData,
  ConnectionData,
  CustomThemeData,
  InboxMailData,
  PersonalBestData,
  PresetData,
  QuoteRatingData,
  QuoteSubmissionData,
  RefusedResultData,
  ReportData,
  ResultFilterPresetData,
  ResultReviewData,
  TagData,
  TestActivityData,
} from './export-format';
import type { PersonalBestRow } from '../../users/personal-bests';
import type { UserRow } from './export.repository';

/**
 * Record builders: one stored row (snake_case, as the snapshot reads it) to its record's data (export-format.ts).
 * Pure functions; objects are built as literals (docs/DEVELOPMENT.md "Performance habits": the result builder runs
 * once per result of the history).
 */

export function accountData(
  user: UserRow,
  permissions: { permission: string; granted_at: number }[],
  derived: AccountData['derived'],
): AccountData {
  return {
    uid: user.uid,
    name: user.name,
    email: user.email,
    addedAt: user.added_at,
    lastNameChangeAt: user.last_name_change_at,
    banned: user.banned,
    lbOptOut: user.lb_opt_out,
    canReport: user.can_report,
    canManageApeKeys: user.can_manage_ape_keys,
    permissions: permissions.map((p) => ({ permission: p.permission, grantedAt: p.granted_at })),
    xp: user.xp,
    completedTests: user.completed_tests,
    startedTests: user.started_tests,
    timeTyping: user.time_typing,
    streak: {
      length: user.streak_length,
      maxLength: user.streak_max_length,
      lastResultTimestamp: user.streak_last_result_at,
      hourOffset: user.streak_hour_offset,
    },
    lastResultAt: user.last_result_at,
    profile: {
      bio: user.profile_bio,
      keyboard: user.profile_keyboard,
      socialProfiles: user.profile_social_profiles as Record<string, string>,
      showActivityOnPublicProfile: user.profile_show_activity,
    },
    badges: user.inventory_badges as AccountData['badges'],
    premium: { startTimestamp: user.premium_start_at, expirationTimestamp: user.premium_expires_at },
    chat: { id: user.chat_id, avatar: user.chat_avatar },
    derived,
  };
}

function personalBestData(row: PersonalBestRow): PersonalBestData {
  return {
    mode: row.mode,
    mode2: row.mode2,
    language: row.language,
    difficulty: row.difficulty,
    punctuation: row.punctuation,
    numbers: row.numbers,
    lazyMode: row.lazy_mode,
    wpm: row.wpm,
    acc: row.acc,
    raw: row.raw,
    consistency: row.consistency,
    timestamp: row.timestamp,
  };
}

export function accountPersonalBestData(
  row: PersonalBestRow & { held_result_id: string | null },
): AccountPersonalBestData {
  return { ...personalBestData(row), heldResultId: row.held_result_id };
}

/** Tags with their personal bests (rows of both tables in any order). */
export function tagData(
  tags: { id: string; name: string; created_at: number }[],
  pbs: (PersonalBestRow & { tag_id: string })[],
): TagData[] {
  const byTag = new Map<string, PersonalBestData[]>();
  for (const pb of pbs) {
    const list = byTag.get(pb.tag_id) ?? [];
    list.push(personalBestData(pb));
    byTag.set(pb.tag_id, list);
  }
  return tags.map((t) => ({
    id: t.id,
    name: t.name,
    createdAt: t.created_at,
    personalBests: byTag.get(t.id) ?? [],
  }));
}

export function presetData(row: {
  id: string;
  name: string;
  config: unknown;
  setting_groups: string[] | null;
  created_at: number;
}): PresetData {
  return {
    id: row.id,
    name: row.name,
    config: row.config,
    settingGroups: row.setting_groups,
    createdAt: row.created_at,
  };
}

export function customThemeData(row: {
  id: string;
  name: string;
  colors: unknown;
  created_at: number;
}): CustomThemeData {
  return { id: row.id, name: row.name, colors: row.colors, createdAt: row.created_at };
}

export function resultFilterPresetData(row: {
  id: string;
  name: string;
  filters: unknown;
  created_at: number;
}): ResultFilterPresetData {
  return { id: row.id, name: row.name, filters: row.filters, createdAt: row.created_at };
}

export function inboxMailData(row: {
  id: string;
  subject: string;
  body: string;
  rewards: unknown;
  timestamp: number;
  read: boolean;
}): InboxMailData {
  return {
    id: row.id,
    subject: row.subject,
    body: row.body,
    rewards: row.rewards as InboxMailData['rewards'],
    timestamp: row.timestamp,
    read: row.read,
  };
}

export function connectionData(row: {
  id: string;
  initiator_uid: string;
  initiator_name: string;
  receiver_uid: string;
  receiver_name: string;
  status: string;
  created_at: number;
  last_modified: number;
}): ConnectionData {
  return {
    id: row.id,
    initiatorUid: row.initiator_uid,
    initiatorName: row.initiator_name,
    receiverUid: row.receiver_uid,
    receiverName: row.receiver_name,
    status: row.status,
    createdAt: row.created_at,
    lastModified: row.last_modified,
  };
}

export function apeKeyData(row: {
  id: string;
  name: string;
  enabled: boolean;
  created_on: number;
  modified_on: number;
  last_used_on: number;
}): ApeKeyData {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    createdOn: row.created_on,
    modifiedOn: row.modified_on,
    lastUsedOn: row.last_used_on,
  };
}

const DAY_MS = 86_400_000;

export function testActivityData(row: { day: number; tests: number }): TestActivityData {
  return { day: row.day, date: new Date(row.day * DAY_MS).toISOString().slice(0, 10), tests: row.tests };
}

export function quoteRatingData(row: {
  language: string;
  quote_id: number;
  rating: number;
}): QuoteRatingData {
  return { language: row.language, quoteId: row.quote_id, rating: row.rating };
}

export function quoteSubmissionData(row: {
  id: string;
  text: string;
  source: string;
  language: string;
  submitted_at: number;
}): QuoteSubmissionData {
  return {
    id: row.id,
    text: row.text,
    source: row.source,
    language: row.language,
    submittedAt: row.submitted_at,
  };
}

export function reportData(row: {
  id: string;
  type: string;
  content_id: string;
  quote_id: number | null;
  quote_language: string | null;
  reason: string;
  comment: string;
  created_at: number;
}): ReportData {
  return {
    id: row.id,
    type: row.type,
    contentId: row.content_id,
    quoteId: row.quote_id,
    quoteLanguage: row.quote_language,
    reason: row.reason,
    comment: row.comment,
    createdAt: row.created_at,
  };
}

export function approvedQuoteData(
  uid: string,
  row: {
    language: string;
    id: number;
    text: string;
    source: string;
    length: number;
    approved_at: number;
    submitted_by: string;
    approved_by_uid: string;
  },
): ApprovedQuoteData {
  const roles: ApprovedQuoteData['roles'] = [];
  if (row.submitted_by === uid) roles.push('submitter');
  if (row.approved_by_uid === uid) roles.push('approver');
  return {
    language: row.language,
    id: row.id,
    text: row.text,
    source: row.source,
    length: row.length,
    approvedAt: row.approved_at,
    roles,
  };
}

export function resultReviewData(row: {
  result_id: string;
  status: string;
  reasons: unknown;
  key_timing: unknown;
  result: unknown;
  held_at: number;
  decided_at: number | null;
  decision_reason: string | null;
}): ResultReviewData {
  return {
    resultId: row.result_id,
    status: row.status as ResultReviewData['status'],
    reasons: row.reasons,
    keyTiming: row.key_timing,
    result: row.result,
    heldAt: row.held_at,
    decidedAt: row.decided_at,
    decisionReason: row.decision_reason,
  };
}

/** The client's result hash is bookkeeping of the submission, like the hashes the account keeps: never exported. */
function withoutHash(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const { hash: _hash, ...rest } = body as Record<string, unknown>;
  return rest;
}

export function refusedResultData(row: {
  id: string;
  refused_at: number;
  status: number;
  check_name: string;
  figures: unknown;
  body: unknown;
  client_version: string | null;
}): RefusedResultData {
  return {
    id: row.id,
    refusedAt: row.refused_at,
    status: row.status,
    check: row.check_name,
    figures: row.figures,
    body: withoutHash(row.body),
    clientVersion: row.client_version,
  };
}
