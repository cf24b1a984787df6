import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { hashSync } from 'bcrypt';
import { BSON, Double, EJSON, Int32, Long, ObjectId } from 'bson';

/**
 * A database of the original platform as its MongoDB tools write it, made with the `bson` package: every collection
 * the importer reads (and a few it must ignore), with the shapes the original wrote over the years. Deterministic, so
 * tests can assert exact figures. `DAY` is the UTC day the fixture treats as today.
 */
export type Doc = Record<string, unknown>;
export type Dump = Record<string, Doc[]>;

export const APE_KEY_SECRET = 'K7f2s9Qm4Xw1Zp8Lr5Tb3Vn6Yc0Hd2Ju'; // 32 characters, as the original makes them
export const APE_KEY_ID = '65a000000000000000000a01';
export const DISABLED_KEY_ID = '65a000000000000000000a02';
export const DISABLED_KEY_SECRET = 'Dq9Xr2Lm7Wt4Zs1Kp8Vb3Nc6Yh0Fg5Ja';

const oid = (n: number, prefix = '65a0') => new ObjectId(`${prefix}${n.toString(16).padStart(20, '0')}`);
const pb = (wpm: number, extra: Doc = {}): Doc => ({
  acc: 97.5,
  consistency: 80,
  difficulty: 'normal',
  language: 'english',
  punctuation: false,
  numbers: false,
  lazyMode: false,
  raw: wpm + 5,
  wpm,
  timestamp: 1_700_000_000_000,
  ...extra,
});

export interface FixtureOptions {
  /** A time during the fixture's "today" (ms); today's results are placed just before it. */
  now: number;
}

/** The fixture database: a few accounts covering every shape, and the records of every other collection. */
export function originalDatabase({ now }: FixtureOptions): Dump {
  const year = new Date(now).getUTCFullYear();
  const alice: Doc = {
    _id: oid(1, '64f0'),
    uid: 'uid-alice',
    name: 'alice',
    email: 'alice@example.test',
    addedAt: 1_600_000_000_000,
    personalBests: {
      time: { '15': [pb(120)], '60': [pb(110), pb(90, { punctuation: true })] },
      words: { '10': [pb(130)] },
      quote: {},
      zen: {},
      custom: {},
    },
    lbPersonalBests: { time: { '15': { english: pb(120) }, '60': { english: pb(110) } } },
    completedTests: new Int32(40),
    startedTests: new Int32(50),
    timeTyping: new Double(9000.5),
    streak: { length: 3, maxLength: 12, lastResultTimestamp: now - 3_600_000, hourOffset: 2.5 },
    xp: Long.fromNumber(123_456),
    discordId: '111222333',
    discordAvatar: 'avatarhash',
    tags: [{ _id: oid(11), name: 'focus', personalBests: { time: { '15': [pb(125)] } } }],
    profileDetails: {
      bio: 'Types <b>fast</b>',
      keyboard: 'HHKB',
      socialProfiles: { twitter: 'alice_t', github: 'alice', website: 'https://alice.example' },
      showActivityOnPublicProfile: true,
    },
    customThemes: [
      {
        _id: oid(21),
        name: 'dark_mode',
        colors: ['#111', '#222', '#333', '#444', '#555', '#666', '#777', '#888', '#999', '#aaa'],
      },
    ],
    premium: { startTimestamp: 1_650_000_000_000, expirationTimestamp: -1 },
    quoteRatings: { english: { '42': 4 } },
    favoriteQuotes: { english: ['1', '42'] },
    lbMemory: { time: { '15': { english: 7 } } },
    inventory: { badges: [{ id: 1, selected: true }, { id: 3 }] },
    banned: false,
    lbOptOut: false,
    quoteMod: true,
    canReport: false,
    canManageApeKeys: true,
    resultFilterPresets: [
      {
        _id: oid(31),
        name: 'english_only',
        pb: { no: true, yes: true },
        difficulty: { normal: true, expert: true, master: true },
        mode: { time: true, words: true, quote: true, zen: true, custom: true },
        words: { '10': true, '25': true, '50': true, '100': true, custom: true },
        time: { '15': true, '30': true, '60': true, '120': true, custom: true },
        quoteLength: { short: true, medium: true, long: true, thicc: true },
        punctuation: { on: true, off: true },
        numbers: { on: true, off: true },
        date: { last_day: false, last_week: false, last_month: false, last_3months: false, all: true },
        tags: { none: true },
        language: { english: true },
        funbox: { none: true },
      },
    ],
    inbox: [
      {
        id: '0b6c8a52-4c5e-4d8e-9f10-aaaaaaaaaaaa',
        subject: 'Welcome',
        body: 'Hello there',
        timestamp: 1_690_000_000_000,
        read: false,
        rewards: [{ type: 'xp', item: 500 }],
      },
    ],
    testActivity: { [String(year)]: [null, 2, null, 5] },
    lastNameChange: now - 5 * 86_400_000,
  };
  // The oldest shapes: dates as BSON dates, counters as other number types, no numbers/lazyMode in personal bests,
  // a best without accuracy and one without a language, a nine-colour theme, the first lbMemory layout, no activity.
  const bob: Doc = {
    _id: oid(2, '64f0'),
    uid: 'uid-bob',
    name: 'Bob',
    addedAt: new Date(1_550_000_000_000),
    email: 'bob@example.test',
    personalBests: {
      time: {
        '15': [
          {
            acc: 95,
            consistency: 70,
            difficulty: 'normal',
            language: 'english',
            punctuation: false,
            raw: 105,
            wpm: 100,
            timestamp: 1_560_000_000_000,
          },
        ],
        '60': [{ wpm: 80, language: 'english', difficulty: 'normal', punctuation: false }],
      },
      words: { '25': [{ wpm: 70, acc: 90 }] },
    },
    completedTests: Long.fromNumber(20),
    startedTests: new Double(25),
    timeTyping: 8000,
    xp: new Int32(999),
    tags: [{ _id: oid(12), name: 'old tag!', personalBests: {} }],
    customThemes: [
      {
        _id: oid(22),
        name: 'nine',
        colors: [
          '#000000',
          '#111111',
          '#222222',
          '#333333',
          '#444444',
          '#555555',
          '#666666',
          '#777777',
          '#888888',
        ],
      },
    ],
    lbMemory: { time15: { global: 5, daily: 2 } },
    oldTypingStats: { completedTests: 1000 },
    verified: true,
    nameHistory: ['bobby'],
    ips: ['127.0.0.1'],
    lastReultHashes: ['h1', 'h2'],
  };
  const carol: Doc = {
    _id: oid(3, '64f0'),
    uid: 'uid-carol',
    name: 'carol',
    email: 'carol@example.test',
    addedAt: 1_600_000_000_000,
    personalBests: { time: { '15': [pb(150)] } },
    timeTyping: 10_000,
    lbOptOut: true,
  };
  const dave: Doc = {
    _id: oid(4, '64f0'),
    uid: 'uid-dave',
    name: 'dave',
    email: 'dave@example.test',
    addedAt: 1_600_000_000_000,
    personalBests: { time: { '15': [pb(200)] } },
    timeTyping: 10_000,
    banned: true,
  };
  const erin: Doc = {
    _id: oid(5, '64f0'),
    uid: 'uid-erin',
    name: 'bad name!',
    email: 'erin@example.test',
    addedAt: 1_600_000_000_000,
    needsToChangeName: true,
    quoteMod: 'english',
  };
  const frank: Doc = {
    _id: oid(6, '64f0'),
    uid: 'uid-frank',
    name: 'ALICE',
    email: 'frank@example.test',
    addedAt: 1_600_000_000_000,
  };
  const nameless: Doc = { _id: oid(7, '64f0'), name: 'nouid', addedAt: 1 };

  const today = Math.floor(now / 86_400_000) * 86_400_000;
  const result = (n: number, uid: string, extra: Doc): Doc => ({
    _id: oid(100 + n),
    uid,
    wpm: 100,
    rawWpm: 105,
    charStats: [250, 2, 0, 1],
    acc: 98,
    mode: 'time',
    mode2: '15',
    timestamp: 1_700_000_000_000 + n * 60_000,
    testDuration: 15.01,
    consistency: 80,
    keyConsistency: 60,
    chartData: { wpm: [90, 100], burst: [95, 105], err: [0, 1] },
    name: 'alice',
    ...extra,
  });
  const results: Doc[] = [
    result(1, 'uid-alice', {
      funbox: ['mirror'],
      tags: [oid(11)],
      isPb: true,
      keySpacingStats: { average: 80, sd: 10 },
    }),
    result(2, 'uid-alice', { mode: 'words', mode2: '10', testDuration: 6 }),
    result(3, 'uid-alice', { timestamp: today + 1000, wpm: 120, acc: 99 }),
    // Legacy results: numbers for mode2, funbox text, the old chart, "toolong", raw key timings, char counts.
    result(4, 'uid-bob', {
      mode2: new Int32(60),
      funbox: 'none',
      chartData: { wpm: [80], raw: [85], err: [0] },
      name: undefined,
      timestamp: new Date(1_560_000_000_000),
      testDuration: '60.02',
      charStats: undefined,
      correctChars: 300,
      incorrectChars: 4,
      keySpacing: [100, 120, 110],
      keyDuration: 'toolong',
      language: 'english_expanded',
    }),
    result(5, 'uid-bob', {
      funbox: 'mirror#nospace',
      chartData: 'toolong',
      mode: 'quote',
      mode2: 123,
      quoteLength: 1,
    }),
    result(6, 'uid-bob', { timestamp: today + 2000, wpm: 100, name: 'Bob' }),
    result(7, 'uid-ghost', {}),
    result(8, 'uid-alice', { wpm: 999 }),
    result(9, 'uid-alice', { mode: 'marathon' }),
  ];
  for (const r of results) if (r.name === undefined) delete r.name;
  for (const r of results) if (r.charStats === undefined) delete r.charStats;

  return {
    users: [alice, bob, carol, dave, erin, frank, nameless],
    results,
    configs: [
      {
        _id: oid(201),
        uid: 'uid-alice',
        config: { theme: 'serika_dark', punctuation: true, difficulty: 'expert' },
      },
      {
        _id: oid(202),
        uid: 'uid-bob',
        config: {
          funbox: 'mirror#nospace',
          indicateTypos: true,
          fontSize: '15',
          quoteLength: -1,
          customThemeColors: ['#000', '#111', '#222', '#333', '#444', '#555', '#666', '#777', '#888'],
          showLiveWpm: true,
          keymapShowTopRow: 'always',
          someRemovedSetting: 'x',
        },
      },
      { _id: oid(203), uid: 'uid-ghost', config: { punctuation: true } },
    ],
    presets: [
      {
        _id: oid(301),
        uid: 'uid-alice',
        name: 'sprint',
        config: { mode: 'time', time: 15 },
        settingGroups: ['test'],
      },
      { _id: oid(302), uid: 'uid-bob', name: 'my preset', config: { funbox: 'none', punctuation: false } },
    ],
    connections: [
      {
        _id: oid(401),
        key: 'uid-alice/uid-bob',
        initiatorUid: 'uid-alice',
        initiatorName: 'alice',
        receiverUid: 'uid-bob',
        receiverName: 'Bob',
        lastModified: 1_700_000_000_000,
        status: 'accepted',
      },
      {
        _id: oid(402),
        key: 'uid-alice/uid-carol',
        initiatorUid: 'uid-carol',
        initiatorName: 'carol',
        receiverUid: 'uid-alice',
        receiverName: 'alice',
        lastModified: 1_700_000_000_000,
        status: 'pending',
      },
      {
        _id: oid(403),
        key: 'uid-alice/uid-ghost',
        initiatorUid: 'uid-alice',
        initiatorName: 'alice',
        receiverUid: 'uid-ghost',
        receiverName: 'ghost',
        lastModified: 1,
        status: 'accepted',
      },
    ],
    'ape-keys': [
      {
        _id: new ObjectId(APE_KEY_ID),
        uid: 'uid-alice',
        name: 'stats-bot',
        enabled: true,
        hash: hashSync(APE_KEY_SECRET, 4),
        createdOn: 1_700_000_000_000,
        modifiedOn: 1_700_000_000_000,
        lastUsedOn: -1,
        useCount: new Int32(0),
      },
      {
        _id: new ObjectId(DISABLED_KEY_ID),
        uid: 'uid-alice',
        name: 'old',
        enabled: false,
        hash: hashSync(DISABLED_KEY_SECRET, 4),
        createdOn: 1_700_000_000_000,
        modifiedOn: 1_700_000_000_000,
        lastUsedOn: 1_700_000_500_000,
        useCount: 3,
      },
      {
        _id: oid(503),
        uid: 'uid-ghost',
        name: 'x',
        enabled: true,
        hash: hashSync('ghost-secret', 4),
        createdOn: 1,
        modifiedOn: 1,
        lastUsedOn: -1,
        useCount: 0,
      },
    ],
    blocklist: [
      { _id: oid(601), usernameHash: sha256hex('cheater'), timestamp: 1_700_000_000_000 },
      { _id: oid(602), emailHash: sha256hex('cheater@example.test'), timestamp: 1_700_000_000_000 },
      { _id: oid(603), discordIdHash: sha256hex('999'), timestamp: 1_700_000_000_000 },
    ],
    'admin-uids': [
      { _id: oid(701), uid: 'uid-alice' },
      { _id: oid(702), uid: 'uid-ghost' },
    ],
    'new-quotes': [
      {
        _id: oid(801),
        text: 'A'.repeat(80),
        source: 'a book',
        language: 'english',
        submittedBy: 'uid-bob',
        timestamp: 1_700_000_000_000,
        approved: false,
      },
      {
        _id: oid(802),
        text: 'B'.repeat(80),
        source: 'b',
        language: 'english',
        submittedBy: 'uid-bob',
        timestamp: 1,
        approved: true,
      },
    ],
    'quote-rating': [
      { _id: oid(901), quoteId: 42, language: 'english', ratings: 2, totalRating: 9, average: 4.5 },
    ],
    reports: [
      {
        _id: oid(1001),
        id: '3f1a2b3c-4d5e-4f60-8a7b-000000000001',
        type: 'quote',
        timestamp: 1_700_000_000_000,
        uid: 'uid-alice',
        contentId: 'english-42',
        reason: 'Duplicate quote',
        comment: 'seen it',
      },
      {
        _id: oid(1002),
        id: '3f1a2b3c-4d5e-4f60-8a7b-000000000002',
        type: 'user',
        timestamp: 1_700_000_000_000,
        uid: 'uid-bob',
        contentId: 'uid-dave',
        reason: 'Suspected cheating',
        comment: '',
      },
    ],
    psa: [
      { _id: oid(1101), message: 'Maintenance tonight', level: 1, sticky: true, date: 1_700_000_000_000 },
    ],
    public: [{ _id: 'stats', testsCompleted: 5, testsStarted: 7, timeTyping: 100 }],
    logs: [{ _id: oid(1201), timestamp: 1, uid: '', event: 'x', message: 'y' }],
    'leaderboards.english.time.15': [{ _id: oid(1301), uid: 'uid-alice', rank: 1, wpm: 120 }],
  };
}

function sha256hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export type DumpFormat = 'bson' | 'bson.gz' | 'json-relaxed' | 'json-canonical';

/** Writes the database as mongodump (`.bson`, `.bson.gz`, with metadata files) or mongoexport (`.json`) does. */
export async function writeDump(dir: string, dump: Dump, format: DumpFormat): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (const [collection, docs] of Object.entries(dump)) {
    if (format === 'json-relaxed' || format === 'json-canonical') {
      const relaxed = format === 'json-relaxed';
      const lines = docs.map((d) => EJSON.stringify(d, { relaxed })).join('\n');
      await writeFile(join(dir, `${collection}.json`), `${lines}\n`);
      continue;
    }
    const bson = Buffer.concat(docs.map((d) => BSON.serialize(d)));
    const metadata = JSON.stringify({ options: {}, indexes: [{ v: 2, key: { _id: 1 }, name: '_id_' }] });
    if (format === 'bson.gz') {
      await writeFile(join(dir, `${collection}.bson.gz`), gzipSync(bson));
      await writeFile(join(dir, `${collection}.metadata.json.gz`), gzipSync(metadata));
    } else {
      await writeFile(join(dir, `${collection}.bson`), bson);
      await writeFile(join(dir, `${collection}.metadata.json`), metadata);
    }
  }
  return dir;
}
