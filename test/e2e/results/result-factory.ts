import { randomBytes } from 'node:crypto';
import objectHash from 'object-hash';
import type { Database } from '../../../src/infra/database/database';
import {
  planFor,
  Random,
  tooLong,
  typeTest,
  type Typist,
  type TypingMode,
} from '../../../generators/human-typing';
import type { TestApp } from '../../support/test-app';

export type ResultBody = Record<string, unknown>;

// Client timestamps differ between results, so results built here have distinct hashes.
let clientTime = 1_700_000_000_000;

/** The measurements the client derives from the keystroke timeline (generated unless a test gives them itself). */
const MEASURED = [
  'charStats',
  'charTotal',
  'chartData',
  'keySpacing',
  'keyDuration',
  'keyOverlap',
  'startToFirstKey',
  'lastKeyToEnd',
  'consistency',
  'keyConsistency',
  'wpmConsistency',
] as const;

// One steady typist: the factories want exact figures, the generated corpus is where typists vary.
const TYPIST: Typist = { intervalCv: 0.45, holdMeanMs: 100, holdCv: 0.3, hesitation: 0 };

/**
 * The measurements of a test typed to the figures of `result` (wpm, rawWpm, acc, testDuration, mode, afkDuration),
 * consistent as the original client's are, so the anti-cheat accepts it as it accepts the client's. A figure the
 * generator cannot meet exactly (a fractional afkDuration) stays as asked.
 */
function measured(result: ResultBody): ResultBody {
  const seconds = result.testDuration as number;
  const afk = result.afkDuration as number;
  const plan = {
    ...planFor({
      mode: result.mode as TypingMode,
      mode2: String(result.mode2),
      durationMs: Math.round(seconds * 1000),
      wpm: result.wpm as number,
      rawWpm: result.rawWpm as number,
      acc: result.acc as number,
      bailedOut: result.bailedOut === true,
      afkSeconds: Number.isInteger(afk) && afk < seconds - 1 ? afk : 0,
    }),
    // No pause of a second or more but the afk ones asked for.
    maxIntervalMs: 900,
  };
  const typed = typeTest(new Random(clientTime % 2_147_483_647), TYPIST, plan);
  const body: ResultBody = { ...result };
  for (const field of MEASURED) body[field] = typed[field];
  tooLong(body);
  return body;
}

/**
 * A result as the original client sends it (every field), without `uid` and `hash`: the figures a test gives, and
 * the client's measurements of a test typed to them (keySpacing, keyDuration, chart, charStats, ...). A measurement
 * given in `overrides` is sent as given (a test that means to send something the client would not).
 */
export function clientResult(overrides: ResultBody = {}): ResultBody {
  clientTime += 1000;
  const wpm = (overrides.wpm as number | undefined) ?? 80;
  const acc = (overrides.acc as number | undefined) ?? 96;
  const figures: ResultBody = {
    wpm,
    // Wrong characters left in the text make raw the higher; with 100% accuracy there are none.
    rawWpm: acc >= 100 ? wpm : Math.round(wpm * 102.5) / 100,
    acc,
    mode: 'time',
    mode2: '30',
    timestamp: clientTime,
    testDuration: 30,
    restartCount: 2,
    incompleteTestSeconds: 4,
    afkDuration: 1,
    tags: [],
    bailedOut: false,
    blindMode: false,
    lazyMode: false,
    funbox: [],
    language: 'english',
    difficulty: 'normal',
    numbers: false,
    punctuation: false,
    stopOnLetter: false,
    incompleteTests: [{ acc: 90, seconds: 4 }],
    ...overrides,
  };
  return { ...measured(figures), ...overrides };
}

/**
 * A timed 15-second result (a daily board's) with nothing away or incomplete, as the client sends it: for tests
 * about boards and outages that only need results to enter.
 */
export function boardResult(overrides: ResultBody = {}): ResultBody {
  return clientResult({
    mode: 'time',
    mode2: '15',
    testDuration: 15,
    wpm: 60,
    acc: 95,
    afkDuration: 0,
    restartCount: 0,
    incompleteTestSeconds: 0,
    incompleteTests: [],
    ...overrides,
  });
}

/**
 * Only the spec's required fields (spec "Result, submitted"), without `hash`: what the schema accepts. Saved, but
 * held off the boards for review (no measurements vouch for it), unless `results.antiCheat.measurements` is off.
 */
export function minimalResult(overrides: ResultBody = {}): ResultBody {
  return {
    wpm: 60,
    rawWpm: 61,
    acc: 95,
    mode: 'time',
    mode2: '15',
    language: 'english',
    timestamp: (clientTime += 1000),
    testDuration: 15,
    consistency: 70,
    ...overrides,
  };
}

/** Adds `uid` and the object hash the client computes (of everything but the hash, uid included). */
export function signed(result: ResultBody, uid: string): ResultBody {
  const withUid: ResultBody = JSON.parse(JSON.stringify({ ...result, uid })) as ResultBody;
  return { ...withUid, hash: objectHash(withUid) };
}

/** Same, for a result without a `uid` field: the server hashes it with the caller's uid added. */
export function signedWithoutUid(result: ResultBody, uid: string): ResultBody {
  const plain = JSON.parse(JSON.stringify(result)) as ResultBody;
  return { ...plain, hash: objectHash({ ...plain, uid }) };
}

export async function submit(t: TestApp, uid: string, result: ResultBody, auth?: string) {
  return t.request<{ data: SubmitData }>('POST', '/results', {
    auth: auth ?? (await t.bearer(uid)),
    body: { result },
  });
}

export interface SubmitData {
  isPb: boolean;
  tagPbs: string[];
  insertedId: string;
  xp: number;
  dailyXpBonus: boolean;
  xpBreakdown: Record<string, number>;
  streak: number;
}

/** Submits a signed client result and returns its `data`, failing loudly when it is refused. */
export async function submitOk(t: TestApp, uid: string, overrides: ResultBody = {}): Promise<SubmitData> {
  const res = await submit(t, uid, signed(clientResult(overrides), uid));
  if (res.status !== 200) throw new Error(`submission refused: ${res.status} ${res.text}`);
  return res.body.data as SubmitData;
}

/** Inserts a tag directly (tag routes belong to the users feature). */
export async function createTag(db: Database, uid: string, name = 'tag'): Promise<string> {
  const id = randomBytes(12).toString('hex');
  await db.insertInto('tags').values({ id, uid, name, created_at: Date.now() }).execute();
  return id;
}

export async function userRow(db: Database, uid: string) {
  return db.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
}

export async function resultCount(db: Database, uid: string): Promise<number> {
  const row = await db
    .selectFrom('results')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('uid', '=', uid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
