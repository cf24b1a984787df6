/**
 * The account export format, version 1 (issue 22): what `GET /users/export` and `npm run cli -- users export` write,
 * and what an account importer reads back. NDJSON, UTF-8, one JSON value per line:
 *
 * 1. the header, `ExportHeader` (no `type`);
 * 2. records `{"type": <ExportRecordType>, "data": ...}`, grouped by type in the order of `DATA_RECORD_TYPES`, results
 *    last (oldest first) so a reader meets every tag before the results that name it;
 * 3. the trailer, `{"type": "end", "data": EndData}`: a file without it is incomplete (a failure after the first
 *    byte aborts the download; the status was already 200), so a reader refuses it.
 *
 * Rules a reader can rely on:
 * - every time is milliseconds since the Unix epoch (UTC), as stored; `exportedAt` too;
 * - a record holds every stored column of its rows (the export test holds each column against its field, in
 *   test/e2e/portability/export-storage.ts), the owner's uid only once, in the header; `null` means the column is
 *   NULL (never left out);
 * - nothing secret: no ApeKey hash (a key's metadata only: an imported key cannot authenticate), no token, no
 *   result hashes; `OMITTED_COLUMNS` lists every stored column left out and why;
 * - `account.derived` is computed by the exporting instance (premium as it applies now, all-time ranks); an
 *   importer ignores it, as boards and premium state are rebuilt or re-evaluated on the instance;
 * - a new field or record type in a later version 1 file is additive: readers ignore fields they do not know and
 *   report records of a type they do not know (the account importer puts them in its rejects file); a change that is
 *   not additive bumps `version`.
 *
 * Additions within version 1, in order (each leaves what was exported before unchanged):
 * - `personalBest.heldResultId`: the personal best comes from a result held for review or rejected (issue 23), so it
 *   is on no board; null otherwise (also for files written before the field, where no result was ever held);
 * - the `resultReview` record type: the account's results held for review, with their reasons and decision;
 * - the `refusedResult` record type: the account's results the anti-cheat refused and the quarantine still keeps,
 *   each with the body as received, the check that refused it and its figures.
 */

export const EXPORT_FORMAT = 'typing-platform-account-export';
export const EXPORT_FORMAT_VERSION = 1;
export const EXPORT_MEDIA_TYPE = 'application/x-ndjson';

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_FORMAT_VERSION;
  /** When the snapshot was taken (ms). */
  exportedAt: number;
  /** The account's uid: every record belongs to it. */
  uid: string;
}

export interface PersonalBestData {
  mode: string;
  mode2: string;
  language: string;
  difficulty: string;
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
  wpm: number;
  acc: number;
  raw: number;
  consistency: number;
  timestamp: number;
}

/** A personal best of the account (tags' bests are `PersonalBestData`, which is never held). */
export interface AccountPersonalBestData extends PersonalBestData {
  /** The held or rejected result this best comes from (it is on no board until approved); null when on the boards. */
  heldResultId: string | null;
}

export interface AccountData {
  uid: string;
  name: string;
  email: string;
  addedAt: number;
  lastNameChangeAt: number | null;
  banned: boolean;
  lbOptOut: boolean;
  /** Flags support can revoke (the original's `canReport`, `canManageApeKeys`). */
  canReport: boolean;
  canManageApeKeys: boolean;
  /** Granted permissions (`admin`, `quoteMod`). */
  permissions: { permission: string; grantedAt: number }[];
  xp: number;
  completedTests: number;
  startedTests: number;
  /** Seconds. */
  timeTyping: number;
  streak: {
    length: number;
    maxLength: number;
    lastResultTimestamp: number | null;
    /** The streak hour offset (−11..12, set once), null while unset. */
    hourOffset: number | null;
  };
  /** The last accepted result (spacing check), null before the first. */
  lastResultAt: number | null;
  profile: {
    bio: string | null;
    keyboard: string | null;
    socialProfiles: Record<string, string>;
    showActivityOnPublicProfile: boolean;
  };
  badges: { id: number; selected?: boolean }[];
  /** Premium as stored: `expirationTimestamp` -1 is lifetime, null none. */
  premium: { startTimestamp: number | null; expirationTimestamp: number | null };
  /** The linked chat (Discord-compatible) account. */
  chat: { id: string | null; avatar: string | null };
  /** Computed by the exporting instance at export time; not stored, ignored by importers. */
  derived: {
    isPremium: boolean;
    allTimeLbs: { time: Record<'15' | '60', Record<string, { rank: number; count: number }>> };
  };
}

/** Quote ids by language. */
export type FavoriteQuotesData = Record<string, string[]>;

/** The leaderboard ranks the client remembers: `{ <mode>: { <mode2>: { <language>: rank } } }`. */
export type LeaderboardMemoryData = Record<string, Record<string, Record<string, number>>>;

export interface TagData {
  id: string;
  name: string;
  createdAt: number;
  personalBests: PersonalBestData[];
}

export interface PresetData {
  id: string;
  name: string;
  config: unknown;
  /** null: the preset applies every key of its config. */
  settingGroups: string[] | null;
  createdAt: number;
}

export interface ConfigData {
  config: unknown;
  updatedAt: number;
}

export interface CustomThemeData {
  id: string;
  name: string;
  /** Nine named colours, or the original client's array of 10, as stored. */
  colors: unknown;
  createdAt: number;
}

export interface ResultFilterPresetData {
  id: string;
  name: string;
  filters: unknown;
  createdAt: number;
}

export interface InboxMailData {
  id: string;
  subject: string;
  body: string;
  rewards: ({ type: 'badge'; item: { id: number } } | { type: 'xp'; item: number })[];
  timestamp: number;
  read: boolean;
}

/** A connection the account initiated or received; names are both users' current names (as GET /connections). */
export interface ConnectionData {
  id: string;
  initiatorUid: string;
  initiatorName: string;
  receiverUid: string;
  receiverName: string;
  status: string;
  createdAt: number;
  lastModified: number;
}

/** An ApeKey's metadata; never its hash, so an imported key cannot authenticate (the user generates a new one). */
export interface ApeKeyData {
  id: string;
  name: string;
  enabled: boolean;
  createdOn: number;
  modifiedOn: number;
  /** -1 until first used. */
  lastUsedOn: number;
}

export interface TestActivityData {
  /** Days since 1970-01-01 (UTC), as stored. */
  day: number;
  /** The same day as `YYYY-MM-DD`, for people reading the file. */
  date: string;
  tests: number;
}

export interface QuoteRatingData {
  language: string;
  quoteId: number;
  rating: number;
}

/** A quote submission waiting for moderation. */
export interface QuoteSubmissionData {
  id: string;
  text: string;
  source: string;
  language: string;
  submittedAt: number;
}

/** A report the account filed (of a quote or of a user). */
export interface ReportData {
  id: string;
  type: string;
  /** `<language>-<quoteId>` for a quote, the reported uid for a user. */
  contentId: string;
  quoteId: number | null;
  quoteLanguage: string | null;
  reason: string;
  comment: string;
  createdAt: number;
}

/** An approved quote the account submitted or, as a moderator, approved (public content: kept at deletion, unlinked). */
export interface ApprovedQuoteData {
  language: string;
  id: number;
  text: string;
  source: string;
  length: number;
  approvedAt: number;
  roles: ('submitter' | 'approver')[];
}

export interface ResultData {
  id: string;
  timestamp: number;
  /** The account's name when the result was saved. */
  name: string;
  wpm: number;
  rawWpm: number;
  acc: number;
  consistency: number;
  keyConsistency: number | null;
  charStats: number[] | null;
  mode: string;
  mode2: string;
  quoteLength: number | null;
  language: string;
  difficulty: string;
  punctuation: boolean;
  numbers: boolean;
  lazyMode: boolean;
  blindMode: boolean;
  bailedOut: boolean;
  stopOnLetter: boolean;
  funbox: string[];
  tags: string[];
  testDuration: number;
  afkDuration: number;
  incompleteTestSeconds: number;
  restartCount: number;
  isPb: boolean;
  /** XP the result earned. */
  xp: number;
  chartData: unknown;
  keySpacingStats: unknown;
  keyDurationStats: unknown;
}

/**
 * One of the account's results that the anti-cheat held for review (docs/decisions/0017-review-queue.md), and what a
 * moderator decided. The moderator is not named (another user's data); their notes (`decisionReason`) are the review's.
 */
export interface ResultReviewData {
  resultId: string;
  status: 'held' | 'approved' | 'rejected';
  /** Why it was held: the ceilings it crossed. */
  reasons: unknown;
  /** The key-timing summary kept for the moderator, null when the result had none. */
  keyTiming: unknown;
  /** What the boards need of the result, as kept with the review (it outlives a deletion of the results). */
  result: unknown;
  heldAt: number;
  decidedAt: number | null;
  decisionReason: string | null;
}

/**
 * A result the anti-cheat refused (463, 464, 465), as the quarantine keeps it for a while: the body as the client sent
 * it (without its hash), when, and why (the check and the figures it judged). It never counted anywhere.
 */
export interface RefusedResultData {
  id: string;
  refusedAt: number;
  status: number;
  check: string;
  figures: unknown;
  body: unknown;
  clientVersion: string | null;
}

export interface EndData {
  /** Records between the header and this trailer. */
  records: number;
  /** The same, per record type (every type present, 0 when none). */
  counts: Record<DataRecordType, number>;
}

/** The data of each record type. */
export interface ExportRecords {
  account: AccountData;
  favoriteQuotes: FavoriteQuotesData;
  leaderboardMemory: LeaderboardMemoryData;
  personalBest: AccountPersonalBestData;
  tag: TagData;
  preset: PresetData;
  config: ConfigData;
  customTheme: CustomThemeData;
  resultFilterPreset: ResultFilterPresetData;
  inboxMail: InboxMailData;
  connection: ConnectionData;
  apeKey: ApeKeyData;
  testActivity: TestActivityData;
  quoteRating: QuoteRatingData;
  quoteSubmission: QuoteSubmissionData;
  report: ReportData;
  approvedQuote: ApprovedQuoteData;
  resultReview: ResultReviewData;
  refusedResult: RefusedResultData;
  result: ResultData;
  end: EndData;
}

export type ExportRecordType = keyof ExportRecords;
/** Every type but the trailer: the account's data. */
export type DataRecordType = Exclude<ExportRecordType, 'end'>;
export type ExportRecord = { [K in ExportRecordType]: { type: K; data: ExportRecords[K] } }[ExportRecordType];

/** The data record types in file order (results last). */
export const DATA_RECORD_TYPES = [
  'account',
  'favoriteQuotes',
  'leaderboardMemory',
  'personalBest',
  'tag',
  'preset',
  'config',
  'customTheme',
  'resultFilterPreset',
  'inboxMail',
  'connection',
  'apeKey',
  'testActivity',
  'quoteRating',
  'quoteSubmission',
  'report',
  'approvedQuote',
  'resultReview',
  'refusedResult',
  'result',
] as const satisfies readonly DataRecordType[];

// Compile-time: the list above names every data record type.
type Missing = Exclude<DataRecordType, (typeof DATA_RECORD_TYPES)[number]>;
const everyTypeListed: Missing extends never ? true : Missing = true;
void everyTypeListed;
