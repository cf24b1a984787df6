import { randomBytes } from 'node:crypto';
import objectHash from 'object-hash';
import type { Database } from '../../../src/infra/database/database';
import type { TestApp } from '../../support/test-app';

export type ResultBody = Record<string, unknown>;

// Client timestamps differ between results, so results built here have distinct hashes.
let clientTime = 1_700_000_000_000;

/** A result as the original client sends it (every field), without `uid` and `hash`. */
export function clientResult(overrides: ResultBody = {}): ResultBody {
  clientTime += 1000;
  return {
    wpm: 80,
    rawWpm: 82,
    charStats: [200, 0, 0, 0],
    acc: 96,
    mode: 'time',
    mode2: '30',
    timestamp: clientTime,
    testDuration: 30,
    consistency: 75.5,
    keyConsistency: 40.2,
    chartData: { wpm: [70, 80, 90], burst: [75, 85, 95], err: [0, 1, 0] },
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
    charTotal: 200,
    keySpacing: [100, 120, 140],
    keyDuration: [80, 90, 100],
    keyOverlap: 12,
    lastKeyToEnd: 30,
    startToFirstKey: 200,
    wpmConsistency: 80,
    stopOnLetter: false,
    incompleteTests: [{ acc: 90, seconds: 4 }],
    ...overrides,
  };
}

/** Only the spec's required fields (spec "Result, submitted"), without `hash`. */
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
