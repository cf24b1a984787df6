import { plainToInstance } from 'class-transformer';
import { isLanguage } from '../../../../common/languages';
import { validateStrict } from '../../../../common/validation/strict-validation';
import { formatValidationErrors } from '../../../../common/validation/validation.pipe';
import { ResultFiltersDto } from '../../../users/dto/result-filters.dto';
import { themeColorsProblem } from '../../../users/theme-colors';
import { labelProblem } from '../../../users/user-name';
import type {
  AccountData,
  AccountPersonalBestData,
  CustomThemeData,
  InboxMailData,
  PersonalBestData,
  QuoteRatingData,
  ResultFilterPresetData,
  TagData,
  TestActivityData,
} from '../../export/export-format';
import type {
  FilterPresetRow,
  MailRow,
  PersonalBestRow,
  QuoteRatingByUser,
  TagRecord,
  ThemeRow,
  UserBundle,
  UserRow,
} from '../import-records';
import { personalBestProblem as bestRuleProblem } from '../live-rules';
import { accept, Notes, refuse, type Mapped } from '../mapped';
import { mapBadges, mapFavoriteQuotes, mapLbMemory, mapProfile } from '../original/users';
import { between, isObject, shapeProblem, type Shape } from './fields';
import { withoutGrants } from './untrusted-account';

/**
 * The account record and the records that land with it in the write path's user batch (one transaction): what the
 * account reader folds into one document, by record type (`account`, `favoriteQuotes` and `leaderboardMemory` at
 * most one; the others lists).
 */
export const BUNDLED_TYPES = [
  'account',
  'favoriteQuotes',
  'leaderboardMemory',
  'personalBest',
  'tag',
  'customTheme',
  'resultFilterPreset',
  'inboxMail',
  'testActivity',
  'quoteRating',
] as const;
export type BundledType = (typeof BUNDLED_TYPES)[number];
export type AccountDocument = Partial<Record<BundledType, unknown[]>>;

/** Where the account lands here: its uid and name (the file's, or the operator's `--uid` / `--name`). */
export interface AccountTarget {
  uid: string;
  name: string;
}

const ACCOUNT_SHAPE: Shape = {
  uid: 'string',
  name: 'string',
  email: 'string',
  addedAt: 'integer',
  lastNameChangeAt: 'integer?',
  banned: 'boolean',
  lbOptOut: 'boolean',
  canReport: 'boolean',
  canManageApeKeys: 'boolean',
  permissions: 'array',
  xp: 'integer',
  completedTests: 'integer',
  startedTests: 'integer',
  timeTyping: 'number',
  streak: 'object',
  lastResultAt: 'integer?',
  profile: 'object',
  badges: 'array',
  premium: 'object',
  chat: 'object',
};
const STREAK_SHAPE: Shape = {
  length: 'integer',
  maxLength: 'integer',
  lastResultTimestamp: 'integer?',
  hourOffset: 'number?',
};
const PROFILE_SHAPE: Shape = {
  bio: 'string?',
  keyboard: 'string?',
  socialProfiles: 'object',
  showActivityOnPublicProfile: 'boolean',
};
const PB_SHAPE: Shape = {
  mode: 'string',
  mode2: 'string',
  language: 'string',
  difficulty: 'string',
  punctuation: 'boolean',
  numbers: 'boolean',
  lazyMode: 'boolean',
  wpm: 'number',
  acc: 'number',
  raw: 'number',
  consistency: 'number',
  timestamp: 'integer',
};
/** Why a personal best cannot be one here (its shape, then the live rules of its result), or null. */
export function personalBestProblem(pb: unknown): string | null {
  return shapeProblem(pb, PB_SHAPE) ?? bestRuleProblem(pbRow(pb as PersonalBestData));
}

function pbRow(p: PersonalBestData): PersonalBestRow {
  return {
    mode: p.mode,
    mode2: p.mode2,
    language: p.language,
    difficulty: p.difficulty,
    punctuation: p.punctuation,
    numbers: p.numbers,
    lazy_mode: p.lazyMode,
    wpm: p.wpm,
    acc: p.acc,
    raw: p.raw,
    consistency: p.consistency,
    timestamp: p.timestamp,
  };
}

/** Why the account record cannot be imported (nothing of the file is then), or null. */
export function accountProblem(data: unknown): string | null {
  const problem =
    shapeProblem(data, ACCOUNT_SHAPE) ??
    shapeProblem((data as AccountData).streak, STREAK_SHAPE) ??
    shapeProblem((data as AccountData).profile, PROFILE_SHAPE) ??
    shapeProblem((data as AccountData).premium, {
      startTimestamp: 'integer?',
      expirationTimestamp: 'integer?',
    }) ??
    shapeProblem((data as AccountData).chat, { id: 'string?', avatar: 'string?' });
  if (problem !== null) return problem;
  const account = data as AccountData;
  if (!Object.values(account.profile.socialProfiles).every((v) => typeof v === 'string'))
    return 'profile.socialProfiles holds a value that is not text';
  if (!account.badges.every((b) => isObject(b) && Number.isSafeInteger(b.id)))
    return 'badges holds an item without a numeric id';
  const offset = account.streak.hourOffset;
  if (offset !== null && !(between(offset, -11, 12) && Number.isInteger(offset * 2)))
    return 'streak.hourOffset outside -11..12 in half hours';
  return null;
}

function userRow(account: AccountData, target: AccountTarget, notes: Notes): UserRow {
  return {
    uid: target.uid,
    name: target.name,
    email: account.email,
    added_at: account.addedAt,
    banned: account.banned,
    lb_opt_out: account.lbOptOut,
    last_name_change_at: account.lastNameChangeAt,
    completed_tests: account.completedTests,
    started_tests: account.startedTests,
    time_typing: account.timeTyping,
    xp: account.xp,
    streak_length: account.streak.length,
    streak_max_length: account.streak.maxLength,
    streak_last_result_at: account.streak.lastResultTimestamp,
    streak_hour_offset: account.streak.hourOffset,
    // Kept only for the duplicate-submission check; not exported.
    last_result_hashes: [],
    chat_id: account.chat.id,
    chat_avatar: account.chat.avatar,
    // The rules PATCH /users/profile applies (the dump importer's too).
    ...mapProfile(account.profile, notes),
    inventory_badges: mapBadges({ badges: account.badges }, notes),
    favorite_quotes: {},
    premium_start_at: account.premium.startTimestamp,
    premium_expires_at: account.premium.expirationTimestamp,
    lb_memory: {},
    can_report: account.canReport,
    can_manage_ape_keys: account.canManageApeKeys,
  };
}

/** Items of one record type that pass `problem`, the others left out with their reason (rejects file). */
function each<T, R>(
  items: unknown[] | undefined,
  type: string,
  key: (item: T) => string,
  problem: (item: unknown) => string | null,
  row: (item: T) => R,
  notes: Notes,
): R[] {
  const out: R[] = [];
  for (const item of items ?? []) {
    const why = problem(item);
    if (why === null) out.push(row(item as T));
    else notes.leftOut(`${type}[${isObject(item) ? key(item as T) : '?'}]`, why, item);
  }
  return out;
}

const ENTITY: Shape = { id: 'string', name: 'string', createdAt: 'integer' };

const prefixed = (field: string, problem: string | null) => (problem === null ? null : `${field} ${problem}`);

/** A tag's or a theme's name under the rule of the routes that make them. */
const nameProblem = (item: unknown) => prefixed('name', labelProblem((item as { name: unknown }).name));

/** A mail reward the inbox can grant: a badge by id, or XP. */
function isReward(reward: unknown): boolean {
  if (!isObject(reward)) return false;
  if (reward.type === 'xp') return Number.isSafeInteger(reward.item);
  return reward.type === 'badge' && isObject(reward.item) && Number.isSafeInteger(reward.item.id);
}

/** A result filter preset under the rules of `POST /users/resultFilterPresets` (its filters, its name). */
function filterPresetProblem(preset: ResultFilterPresetData): string | null {
  const input = { ...(preset.filters as Record<string, unknown>), _id: preset.id, name: preset.name };
  const errors = validateStrict(plainToInstance(ResultFiltersDto, input));
  return errors.length === 0 ? null : formatValidationErrors(errors).join('; ');
}

/**
 * The account and its bundled records as the write path's user batch: the account row under the target uid and
 * name, and each nested record that is sound (one that is not is left out and reported). The account's permissions
 * are not carried: they are roles the source instance's operator granted, and granting them here is this
 * operator's call. Quote ratings are added to the quotes' aggregates here (the export carries only the user's own).
 */
export function mapAccountBundle(
  doc: AccountDocument,
  target: AccountTarget,
  trusted: boolean,
): Mapped<UserBundle> {
  const [account] = doc.account ?? [];
  const problem = accountProblem(account);
  if (problem !== null) return refuse(`account record: ${problem}`);
  const notes = new Notes();
  const user = userRow(account as AccountData, target, notes);
  const [favorites] = doc.favoriteQuotes ?? [];
  if (favorites !== undefined) user.favorite_quotes = mapFavoriteQuotes(favorites, notes);
  const [memory] = doc.leaderboardMemory ?? [];
  if (memory !== undefined) user.lb_memory = mapLbMemory(memory, notes);
  const pbKey = (p: PersonalBestData) => `${p.mode}/${p.mode2}/${p.language}`;
  const bundle: UserBundle = {
    user,
    personalBests: each<AccountPersonalBestData, PersonalBestRow>(
      doc.personalBest,
      'personalBest',
      pbKey,
      (p) => {
        const problem = personalBestProblem(p);
        if (problem !== null) return problem;
        // Absent in files written before the field (no best was held then).
        const held = (p as Record<string, unknown>).heldResultId;
        return held === undefined || held === null || typeof held === 'string'
          ? null
          : 'heldResultId is not text';
      },
      (p) => ({ ...pbRow(p), held_result_id: p.heldResultId ?? null }),
      notes,
    ),
    tags: each<TagData, TagRecord>(
      doc.tag,
      'tag',
      (t) => t.id,
      (t) => shapeProblem(t, { ...ENTITY, personalBests: 'array' }) ?? nameProblem(t),
      (t) => ({
        id: t.id,
        name: t.name,
        created_at: t.createdAt,
        personalBests: each<PersonalBestData, PersonalBestRow>(
          t.personalBests,
          `tag[${t.id}].personalBests`,
          pbKey,
          personalBestProblem,
          pbRow,
          notes,
        ),
      }),
      notes,
    ),
    themes: each<CustomThemeData, ThemeRow>(
      doc.customTheme,
      'customTheme',
      (t) => t.id,
      (t) =>
        shapeProblem(t, { ...ENTITY, colors: 'json' }) ??
        nameProblem(t) ??
        prefixed('colors', themeColorsProblem((t as CustomThemeData).colors)),
      (t) => ({ id: t.id, name: t.name, colors: t.colors as ThemeRow['colors'], created_at: t.createdAt }),
      notes,
    ),
    mail: each<InboxMailData, MailRow>(
      doc.inboxMail,
      'inboxMail',
      (m) => m.id,
      (m) =>
        shapeProblem(m, {
          id: 'string',
          subject: 'string',
          body: 'string',
          rewards: 'array',
          timestamp: 'integer',
          read: 'boolean',
        }) ?? ((m as InboxMailData).rewards.every(isReward) ? null : 'rewards holds an unknown reward'),
      (m) => ({ ...m, rewards: m.rewards }),
      notes,
    ),
    filterPresets: each<ResultFilterPresetData, FilterPresetRow>(
      doc.resultFilterPreset,
      'resultFilterPreset',
      (p) => p.id,
      (p) =>
        shapeProblem(p, { ...ENTITY, filters: 'object' }) ?? filterPresetProblem(p as ResultFilterPresetData),
      (p) => ({
        id: p.id,
        name: p.name,
        filters: p.filters as Record<string, unknown>,
        created_at: p.createdAt,
      }),
      notes,
    ),
    testActivity: each<TestActivityData, { day: number; tests: number }>(
      doc.testActivity,
      'testActivity',
      (a) => String(a.day),
      (a) => shapeProblem(a, { day: 'integer', tests: 'integer' }),
      (a) => ({ day: a.day, tests: a.tests }),
      notes,
    ),
    permissions: [],
    quoteRatings: each<QuoteRatingData, QuoteRatingByUser>(
      doc.quoteRating,
      'quoteRating',
      (r) => `${r.language}-${r.quoteId}`,
      (r) =>
        shapeProblem(r, { language: 'string', quoteId: 'integer', rating: 'integer' }) ??
        (isLanguage((r as QuoteRatingData).language) ? null : 'unknown language') ??
        (between((r as QuoteRatingData).rating, 1, 5) ? null : 'rating outside 1-5'),
      (r) => ({ language: r.language, quote_id: r.quoteId, rating: r.rating }),
      notes,
    ),
    countQuoteRatings: true,
  };
  return accept(trusted ? bundle : withoutGrants(bundle, notes), notes.list);
}

/** Fields of the account record that carry over nowhere (counted in the summary; docs/data.md). */
export function accountFieldsLeftBehind(doc: AccountDocument): string[] {
  const [account] = doc.account ?? [];
  if (!isObject(account)) return [];
  const left = ['derived'];
  if (Array.isArray(account.permissions) && account.permissions.length > 0) left.push('permissions');
  return left.filter((field) => field in account);
}
