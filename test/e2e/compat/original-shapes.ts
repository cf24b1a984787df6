import { arrayOf, lit, loose, nullable, obj, opt, record, union, type Shape } from './shape';

/** Resource shapes of the original contract (contract facts §12), as the original client reads them. */

export const ID = 'string' as const;

// §12.3
export const PERSONAL_BEST = obj({
  acc: 'number',
  consistency: 'number',
  difficulty: 'string',
  lazyMode: opt('boolean'),
  language: 'string',
  punctuation: opt('boolean'),
  numbers: opt('boolean'),
  raw: 'number',
  wpm: 'number',
  timestamp: 'int',
});

export const PERSONAL_BESTS = obj({
  time: record(arrayOf(PERSONAL_BEST)),
  words: record(arrayOf(PERSONAL_BEST)),
  quote: record(arrayOf(PERSONAL_BEST)),
  zen: record(arrayOf(PERSONAL_BEST)),
  custom: record(arrayOf(PERSONAL_BEST)),
});

// §12.13
export const TAG = obj({ _id: ID, name: 'string', personalBests: PERSONAL_BESTS });
export const HEX_COLOR = 'string' as const;
export const CUSTOM_THEME = obj({ _id: ID, name: 'string', colors: arrayOf(HEX_COLOR, 10) });
export const APE_KEY = obj({
  name: 'string',
  enabled: 'boolean',
  createdOn: 'int',
  modifiedOn: 'int',
  lastUsedOn: 'int',
});

export const STREAK = obj({
  lastResultTimestamp: 'int',
  length: 'int',
  maxLength: 'int',
  hourOffset: opt('number'),
});

export const TEST_ACTIVITY = obj({ testsByDays: arrayOf(nullable('int')), lastDay: 'int' });

const ALL_TIME_BOARD = record(obj({ english: opt(obj({ rank: 'int', count: 'int' })) }));
export const ALL_TIME_LBS = obj({ time: obj({ '15': ALL_TIME_BOARD, '60': ALL_TIME_BOARD }) });

export const BADGE = obj({ id: 'int', selected: opt('boolean') });
export const PROFILE_DETAILS = obj({
  bio: opt('string'),
  keyboard: opt('string'),
  socialProfiles: opt(obj({ twitter: opt('string'), github: opt('string'), website: opt('string') })),
  showActivityOnPublicProfile: opt('boolean'),
});

// §12.9
export const RESULT_FILTERS = obj({
  _id: ID,
  name: 'string',
  pb: obj({ no: 'boolean', yes: 'boolean' }),
  difficulty: record('boolean'),
  mode: record('boolean'),
  words: record('boolean'),
  time: record('boolean'),
  quoteLength: record('boolean'),
  punctuation: obj({ on: 'boolean', off: 'boolean' }),
  numbers: obj({ on: 'boolean', off: 'boolean' }),
  date: obj({
    last_day: 'boolean',
    last_week: 'boolean',
    last_month: 'boolean',
    last_3months: 'boolean',
    all: 'boolean',
  }),
  tags: record('boolean'),
  language: record('boolean'),
  funbox: record('boolean'),
});

// §12.1: the client's user schema is not strict (it carries leaked fields), so extra keys are allowed here.
export const USER = loose({
  uid: 'string',
  name: 'string',
  email: 'string',
  addedAt: 'int',
  personalBests: PERSONAL_BESTS,
  completedTests: opt('int'),
  startedTests: opt('int'),
  timeTyping: opt('number'),
  streak: opt(STREAK),
  xp: opt('int'),
  discordId: opt('string'),
  discordAvatar: opt('string'),
  tags: arrayOf(TAG),
  profileDetails: opt(PROFILE_DETAILS),
  customThemes: arrayOf(CUSTOM_THEME),
  premium: opt(obj({ startTimestamp: 'int', expirationTimestamp: 'int' })),
  isPremium: 'boolean',
  quoteRatings: opt(record(record('number'))),
  favoriteQuotes: opt(record(arrayOf('string'))),
  lbMemory: opt(record(record(record('int')))),
  allTimeLbs: ALL_TIME_LBS,
  inventory: opt(obj({ badges: arrayOf(BADGE) })),
  banned: opt('boolean'),
  lbOptOut: opt('boolean'),
  verified: opt('boolean'),
  needsToChangeName: opt('boolean'),
  quoteMod: opt(union('boolean', 'string')),
  resultFilterPresets: arrayOf(RESULT_FILTERS),
  testActivity: opt(TEST_ACTIVITY),
  inboxUnreadSize: 'int',
});

/**
 * Fields our spec adds under its own names (the spec wins over the original where they differ; the original client
 * ignores keys it does not know): the chat link as `chatId`/`chatAvatar` (`null` when not linked) next to the
 * original's `discordId`/`discordAvatar` (absent when not linked).
 */
const CHAT_FIELDS = { chatId: opt(nullable('string')), chatAvatar: opt(nullable('string')) };

// §12.2 (non-banned profile)
export const PROFILE = obj({
  ...CHAT_FIELDS,
  name: 'string',
  banned: opt('boolean'),
  addedAt: 'int',
  typingStats: obj({ completedTests: 'int', startedTests: 'int', timeTyping: 'number' }),
  personalBests: obj({
    time: record(arrayOf(PERSONAL_BEST), /^(15|30|60|120)$/),
    words: record(arrayOf(PERSONAL_BEST), /^(10|25|50|100)$/),
  }),
  discordId: opt('string'),
  discordAvatar: opt('string'),
  xp: 'int',
  streak: 'int',
  maxStreak: 'int',
  lbOptOut: opt('boolean'),
  isPremium: opt('boolean'),
  inventory: opt(obj({ badges: arrayOf(BADGE) })),
  details: opt(PROFILE_DETAILS),
  allTimeLbs: ALL_TIME_LBS,
  uid: 'string',
  testActivity: opt(TEST_ACTIVITY),
});

// §12.4, plus the spec's "last activity" (spec, GET /users/friends); `isPremium` is the spec's boolean (facts: `true`
// or absent), removed when premium is disabled server-wide.
export const FRIEND = obj({
  ...CHAT_FIELDS,
  lastActivityTimestamp: opt('int'),
  uid: 'string',
  name: 'string',
  discordId: opt('string'),
  discordAvatar: opt('string'),
  startedTests: opt('int'),
  completedTests: opt('int'),
  timeTyping: opt('number'),
  xp: opt('int'),
  banned: opt('boolean'),
  lbOptOut: opt('boolean'),
  connectionId: opt(ID),
  lastModified: opt('int'),
  top15: opt(PERSONAL_BEST),
  top60: opt(PERSONAL_BEST),
  badgeId: opt('int'),
  isPremium: opt('boolean'),
  streak: opt(obj({ length: 'int', maxLength: 'int' })),
});

// §12.5
export const CONNECTION = obj({
  _id: ID,
  initiatorUid: 'string',
  initiatorName: 'string',
  receiverUid: 'string',
  receiverName: 'string',
  lastModified: 'int',
  status: union(lit('pending'), lit('accepted'), lit('blocked')),
});

// §12.7 / §12.6
const MINIFIED_RESULT_FIELDS: Record<string, Shape> = {
  _id: ID,
  uid: 'string',
  wpm: 'number',
  rawWpm: 'number',
  charStats: arrayOf('int', 4),
  acc: 'number',
  mode: 'string',
  mode2: 'string',
  quoteLength: opt('int'),
  timestamp: 'int',
  testDuration: 'number',
  consistency: 'number',
  keyConsistency: 'number',
  isPb: opt('boolean'),
  restartCount: opt('int'),
  incompleteTestSeconds: opt('number'),
  afkDuration: opt('number'),
  tags: opt(arrayOf(ID)),
  bailedOut: opt('boolean'),
  blindMode: opt('boolean'),
  lazyMode: opt('boolean'),
  funbox: opt(arrayOf('string')),
  language: opt('string'),
  difficulty: opt('string'),
  numbers: opt('boolean'),
  punctuation: opt('boolean'),
};
export const MINIFIED_RESULT = obj(MINIFIED_RESULT_FIELDS);
const STATS = obj({ average: 'number', sd: 'number' });
export const RESULT = obj({
  ...MINIFIED_RESULT_FIELDS,
  name: 'string',
  chartData: union(
    lit('toolong'),
    obj({ wpm: arrayOf('number'), burst: arrayOf('number'), err: arrayOf('number') }),
  ),
  keySpacingStats: opt(STATS),
  keyDurationStats: opt(STATS),
});

// §12.10
// On friends-only boards (docs/decisions/0021-daily-and-weekly-boards.md) we renumber `rank` within the friends and
// keep the board's place as `globalRank`; `friendsRank` is there as in the original.
export const LEADERBOARD_ENTRY = obj({
  ...CHAT_FIELDS,
  globalRank: opt('int'),
  wpm: 'number',
  acc: 'number',
  timestamp: 'int',
  raw: 'number',
  consistency: opt('number'),
  uid: 'string',
  name: 'string',
  discordId: opt('string'),
  discordAvatar: opt('string'),
  rank: 'int',
  friendsRank: opt('int'),
  badgeId: opt('int'),
  isPremium: opt('boolean'),
});
export const XP_LEADERBOARD_ENTRY = obj({
  ...CHAT_FIELDS,
  globalRank: opt('int'),
  uid: 'string',
  name: 'string',
  lastActivityTimestamp: 'int',
  timeTypedSeconds: 'number',
  discordId: opt('string'),
  discordAvatar: opt('string'),
  badgeId: opt('int'),
  isPremium: opt('boolean'),
  totalXp: 'int',
  rank: 'int',
  friendsRank: opt('int'),
});

// §12.12
export const MAIL = obj({
  id: 'string',
  subject: 'string',
  body: 'string',
  timestamp: 'int',
  read: 'boolean',
  rewards: arrayOf(union(obj({ type: lit('xp'), item: 'int' }), obj({ type: lit('badge'), item: BADGE }))),
});

export const PRESET = obj({
  _id: ID,
  name: 'string',
  config: record('any'),
  settingGroups: opt(union(arrayOf('string'), 'null')),
});

export const QUOTE_SUBMISSION = obj({
  _id: ID,
  text: 'string',
  source: 'string',
  language: 'string',
  submittedBy: 'string',
  timestamp: 'int',
  approved: 'boolean',
});

export const QUOTE_RATING = obj({
  _id: ID,
  language: 'string',
  quoteId: 'int',
  average: 'number',
  ratings: 'int',
  totalRating: 'int',
});

export const PSA = obj({
  _id: ID,
  message: 'string',
  date: opt('int'),
  level: opt('int'),
  sticky: opt('boolean'),
});
