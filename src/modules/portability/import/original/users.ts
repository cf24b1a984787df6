import { createHash } from 'node:crypto';
import { isURL } from 'class-validator';
import { isValidUid } from '../../../../common/auth/uid';
import { isLanguage } from '../../../../common/languages';
import { sanitizeText } from '../../../users/sanitize';
import { userNameProblem } from '../../../users/user-name';
import type { QuoteRatingByUser, UserBundle, UserRow } from '../import-records';
import { accept, Notes, refuse, type Mapped } from '../mapped';
import { MODES } from '../../../results/dto/completed-result.dto';
import { mapPersonalBests, mergeLeaderboardCopy, mode2For } from './personal-bests';
import { hourOffset, mapFilterPresets, mapInbox, mapTags, mapTestActivity, mapThemes } from './user-parts';
import { bool, int, isPlainObject, millis, num, objectIdTime, text } from './values';

/**
 * Fields of the original's user document that have no place here, and why (docs/data.md "Moving from the original
 * platform"). They are counted in the summary, never silently lost.
 */
const USER_FIELDS_LEFT_BEHIND: Readonly<Record<string, string>> = {
  _id: 'the uid is the key here',
  allTimeLbs: 'derived: ranks come from the rebuilt boards',
  autoBanTimestamps: 'an hour-long anti-cheat window, long expired by the move',
  bananas: 'an old currency nothing reads any more',
  ips: 'not stored here (privacy)',
  isPremium: 'derived from premium',
  nameHistory: 'not kept here',
  needsToChangeName:
    'no such state here: the last name change is cleared instead, so the user can rename at once',
  note: 'moderators’ notes are not kept here',
  oldTypingStats:
    'counters of the original’s first database, never shown by it (used only when the counters are missing)',
  suspicious: 'an anti-cheat mark of the original with no counterpart here',
  verified: 'unused by the original',
};

const KNOWN = new Set([
  'uid',
  'name',
  'email',
  'addedAt',
  'personalBests',
  'lastReultHashes',
  'completedTests',
  'startedTests',
  'timeTyping',
  'streak',
  'xp',
  'discordId',
  'discordAvatar',
  'tags',
  'profileDetails',
  'customThemes',
  'premium',
  'quoteRatings',
  'favoriteQuotes',
  'lbMemory',
  'inventory',
  'banned',
  'lbOptOut',
  'quoteMod',
  'resultFilterPresets',
  'inbox',
  'canReport',
  'lastNameChange',
  'canManageApeKeys',
  'testActivity',
  // Merged into the personal bests, from which the boards are built.
  'lbPersonalBests',
]);

/** A name for an account whose name we cannot keep (invalid under our rule, or taken here): `u_` and 14 hex. */
export function replacementName(uid: string, attempt = 0): string {
  const hex = createHash('sha256').update(`${uid}\u0000${attempt}`).digest('hex');
  return `u_${hex.slice(0, 14)}`;
}

const SOCIAL_RULES: Record<string, (v: string) => boolean> = {
  twitter: (v) => v.length <= 15 && /^(?:[0-9a-zA-Z_-][0-9a-zA-Z_.-]*)?$/.test(v),
  github: (v) => v.length <= 39 && /^(?:[0-9a-zA-Z_-][0-9a-zA-Z_.-]*)?$/.test(v),
  website: (v) =>
    v === '' ||
    (v.length <= 200 &&
      v.startsWith('https://') &&
      isURL(v, { protocols: ['https'], require_protocol: true })),
};

/** Profile text under the rules `PATCH /users/profile` applies: markup stripped, then at most `max` characters. */
function profileText(value: unknown, max: number, path: string, notes: Notes): string | null {
  const raw = text(value);
  if (raw === undefined) return null;
  const clean = sanitizeText(raw);
  if (clean.length > max) {
    notes.changed(path, `cut to ${max} characters`, raw);
    return clean.slice(0, max);
  }
  if (clean !== raw) notes.changed(path, 'markup or stray marks removed', raw);
  return clean;
}

export function mapProfile(raw: unknown, notes: Notes) {
  const details = isPlainObject(raw) ? raw : {};
  const social: Record<string, string> = {};
  if (isPlainObject(details.socialProfiles)) {
    for (const [key, value] of Object.entries(details.socialProfiles)) {
      const rule = SOCIAL_RULES[key];
      if (value === undefined || value === null) continue;
      if (rule && typeof value === 'string' && rule(value)) social[key] = value;
      else notes.leftOut(`profileDetails.socialProfiles.${key}`, 'not valid under our profile rules', value);
    }
  }
  return {
    profile_bio: profileText(details.bio, 250, 'profileDetails.bio', notes),
    profile_keyboard: profileText(details.keyboard, 75, 'profileDetails.keyboard', notes),
    profile_social_profiles: social,
    profile_show_activity: bool(details.showActivityOnPublicProfile) ?? false,
  };
}

export function mapBadges(raw: unknown, notes: Notes): UserRow['inventory_badges'] {
  if (!isPlainObject(raw) || !Array.isArray(raw.badges)) return [];
  const out: UserRow['inventory_badges'] = [];
  raw.badges.forEach((badge, i) => {
    const id = isPlainObject(badge) ? int(badge.id) : undefined;
    if (id === undefined || out.some((b) => b.id === id))
      return notes.leftOut(`inventory.badges[${i}]`, 'not a badge or a repeated one', badge);
    out.push(bool((badge as Record<string, unknown>).selected) ? { id, selected: true } : { id });
  });
  return out;
}

export function mapFavoriteQuotes(raw: unknown, notes: Notes): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!isPlainObject(raw)) return out;
  for (const [lang, ids] of Object.entries(raw)) {
    if (!isLanguage(lang) || !Array.isArray(ids)) {
      notes.leftOut(`favoriteQuotes.${lang}`, 'unknown language or not a list', ids);
      continue;
    }
    const kept = [...new Set(ids.map((id) => String(num(id) ?? '')).filter((id) => /^\d{1,12}$/.test(id)))];
    if (kept.length > 0) out[lang] = kept;
  }
  return out;
}

/**
 * `lbMemory`: today `{ <mode>: { <mode2>: { <language>: rank } } }`; the original's first versions kept
 * `{ "time15": { global, daily } }` for the English boards, which becomes `{ time: { "15": { english: global } } }`.
 */
export function mapLbMemory(raw: unknown, notes: Notes): UserRow['lb_memory'] {
  const out: UserRow['lb_memory'] = {};
  if (!isPlainObject(raw)) return out;
  const set = (mode: string, mode2: string, lang: string, rank: unknown) => {
    const r = int(rank);
    if (r === undefined) return;
    ((out[mode] ??= {})[mode2] ??= {})[lang] = r;
  };
  for (const [key, value] of Object.entries(raw)) {
    const old = /^(time|words)(\d+)$/.exec(key);
    if (old && isPlainObject(value)) {
      set(old[1] as string, old[2] as string, 'english', value.global);
      continue;
    }
    if (!MODES.includes(key as (typeof MODES)[number]) || !isPlainObject(value)) {
      notes.leftOut(`lbMemory.${key}`, 'not a leaderboard memory entry', value);
      continue;
    }
    for (const [m2, byLanguage] of Object.entries(value)) {
      const mode2 = mode2For(key, m2);
      if (mode2 === undefined || !isPlainObject(byLanguage)) continue;
      for (const [lang, rank] of Object.entries(byLanguage))
        if (isLanguage(lang)) set(key, mode2, lang, rank);
    }
  }
  return out;
}

function quoteRatings(raw: unknown, notes: Notes): QuoteRatingByUser[] {
  const out: QuoteRatingByUser[] = [];
  if (!isPlainObject(raw)) return out;
  for (const [lang, byQuote] of Object.entries(raw)) {
    if (!isLanguage(lang) || !isPlainObject(byQuote)) continue;
    for (const [quoteId, rating] of Object.entries(byQuote)) {
      const id = int(quoteId, 1);
      const r = int(rating, 1);
      if (id === undefined || r === undefined || r > 5 || id > 2_147_483_647)
        notes.leftOut(`quoteRatings.${lang}.${quoteId}`, 'not a rating of 1-5', rating);
      else out.push({ language: lang, quote_id: id, rating: r });
    }
  }
  return out;
}

/** One document of the original's `users` collection: the account and everything nested in it. */
export function mapUser(doc: Record<string, unknown>): Mapped<UserBundle> {
  const uid = text(doc.uid);
  if (uid === undefined || !isValidUid(uid)) return refuse('no valid uid');
  const notes = new Notes();
  const addedAt = millis(doc.addedAt) ?? objectIdTime(doc._id);
  if (addedAt === undefined) return refuse('no addedAt and no ObjectId to take the time from');
  if (doc.addedAt === undefined) notes.changed('addedAt', 'missing: the time of the document’s ObjectId');

  let name = text(doc.name) ?? '';
  const problem = userNameProblem(name);
  if (problem !== null) {
    const replacement = replacementName(uid);
    notes.changed(
      'name',
      `${name === '' ? 'no name' : `the name ${problem}`}: renamed to ${replacement}`,
      doc.name,
    );
    name = replacement;
  }
  const renameAllowed = problem !== null || doc.needsToChangeName === true;

  const streak = isPlainObject(doc.streak) ? doc.streak : {};
  const premium = isPlainObject(doc.premium) ? doc.premium : undefined;
  const old = isPlainObject(doc.oldTypingStats) ? doc.oldTypingStats : {};
  const permissions: UserBundle['permissions'] = [];
  if (doc.quoteMod === true) permissions.push('quoteMod');
  else if (typeof doc.quoteMod === 'string' && doc.quoteMod !== '')
    notes.leftOut(
      'quoteMod',
      'moderation of one language only: not granted here (our quoteMod covers all)',
      doc.quoteMod,
    );

  const user: UserRow = {
    uid,
    name,
    email: text(doc.email) ?? '',
    added_at: addedAt,
    banned: bool(doc.banned) ?? false,
    lb_opt_out: bool(doc.lbOptOut) ?? false,
    last_name_change_at: renameAllowed ? null : (millis(doc.lastNameChange) ?? null),
    completed_tests: int(doc.completedTests ?? old.completedTests) ?? 0,
    started_tests: int(doc.startedTests ?? old.startedTests) ?? 0,
    time_typing: Math.max(0, num(doc.timeTyping ?? old.timeTyping) ?? 0),
    xp: int(doc.xp) ?? 0,
    streak_length: int(streak.length) ?? 0,
    streak_max_length: int(streak.maxLength) ?? 0,
    streak_last_result_at: millis(streak.lastResultTimestamp) ?? null,
    streak_hour_offset: hourOffset(streak.hourOffset),
    last_result_hashes: Array.isArray(doc.lastReultHashes)
      ? doc.lastReultHashes.filter((h): h is string => typeof h === 'string').slice(-100)
      : [],
    chat_id: text(doc.discordId) || null,
    chat_avatar: text(doc.discordAvatar) || null,
    ...mapProfile(doc.profileDetails, notes),
    inventory_badges: mapBadges(doc.inventory, notes),
    favorite_quotes: mapFavoriteQuotes(doc.favoriteQuotes, notes),
    premium_start_at: premium ? (millis(premium.startTimestamp) ?? null) : null,
    premium_expires_at: premium
      ? num(premium.expirationTimestamp) === -1
        ? -1
        : (millis(premium.expirationTimestamp) ?? null)
      : null,
    lb_memory: mapLbMemory(doc.lbMemory, notes),
    can_report: bool(doc.canReport) ?? true,
    can_manage_ape_keys: bool(doc.canManageApeKeys) ?? true,
  };
  if (streak.hourOffset !== undefined && streak.hourOffset !== null && user.streak_hour_offset === null)
    notes.leftOut('streak.hourOffset', 'not -11..12 in half hours', streak.hourOffset);

  const bests = mapPersonalBests(doc.personalBests, 'personalBests', notes);
  mergeLeaderboardCopy(doc.lbPersonalBests, bests, 'lbPersonalBests', notes);
  for (const key of Object.keys(doc))
    if (!KNOWN.has(key) && USER_FIELDS_LEFT_BEHIND[key] === undefined)
      notes.leftOut(key, 'a field this importer does not know', doc[key]);

  return accept(
    {
      user,
      personalBests: [...bests.values()],
      tags: mapTags(doc.tags, addedAt, notes),
      themes: mapThemes(doc.customThemes, addedAt, notes),
      mail: mapInbox(uid, doc.inbox, notes),
      filterPresets: mapFilterPresets(doc.resultFilterPresets, addedAt, notes),
      testActivity: mapTestActivity(doc.testActivity, notes),
      permissions,
      quoteRatings: quoteRatings(doc.quoteRatings, notes),
    },
    notes.list,
  );
}

/** The fields of a user document that carry over nowhere (for the summary's count). */
export function userFieldsLeftBehind(doc: Record<string, unknown>): string[] {
  return Object.keys(doc).filter((k) => k !== '_id' && USER_FIELDS_LEFT_BEHIND[k] !== undefined);
}
