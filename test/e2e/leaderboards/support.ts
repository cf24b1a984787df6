import { newId } from '../../../src/common/ids';
import { LeaderboardHooks } from '../../../src/modules/leaderboards/leaderboard-hooks';
import { LeaderboardSnapshotService } from '../../../src/modules/leaderboards/leaderboard-snapshot.service';
import type { ResultSavedEvent } from '../../../src/modules/results/result-hooks';
import { createUser, type UserOverrides } from '../../support/factories';
import type { TestApp } from '../../support/test-app';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface Member {
  uid: string;
  name: string;
  auth: string;
}

/** A user above the default eligibility threshold (7200 s typed). */
export async function eligible(t: TestApp, overrides: UserOverrides = {}): Promise<Member> {
  const user = await createUser(t.db, { timeTyping: 10_000, ...overrides });
  return { uid: user.uid, name: user.name, auth: await t.bearer(user.uid) };
}

export interface PbOverrides {
  mode?: string;
  mode2?: string;
  language?: string;
  difficulty?: string;
  punctuation?: boolean;
  numbers?: boolean;
  lazyMode?: boolean;
  wpm?: number;
  acc?: number;
  raw?: number;
  consistency?: number;
  timestamp?: number;
}

/** A personal best written straight to its table (the all-time board is built from these). */
export async function seedPb(t: TestApp, uid: string, pb: PbOverrides = {}): Promise<void> {
  await t.db
    .insertInto('personal_bests')
    .values({
      uid,
      mode: pb.mode ?? 'time',
      mode2: pb.mode2 ?? '15',
      language: pb.language ?? 'english',
      difficulty: pb.difficulty ?? 'normal',
      punctuation: pb.punctuation ?? false,
      numbers: pb.numbers ?? false,
      lazy_mode: pb.lazyMode ?? false,
      wpm: pb.wpm ?? 100,
      acc: pb.acc ?? 95,
      raw: pb.raw ?? (pb.wpm ?? 100) + 2,
      consistency: pb.consistency ?? 80,
      timestamp: pb.timestamp ?? 1_700_000_000_000,
    })
    .execute();
}

export async function rebuild(t: TestApp) {
  const summary = await t.app.get(LeaderboardSnapshotService).rebuild();
  if (!summary) throw new Error('rebuild did not run');
  return summary;
}

export async function setUser(
  t: TestApp,
  uid: string,
  values: {
    banned?: boolean;
    lb_opt_out?: boolean;
    time_typing?: number;
    premium_expires_at?: number | null;
    chat_id?: string | null;
    chat_avatar?: string | null;
    inventory_badges?: string;
    name?: string;
  },
): Promise<void> {
  await t.db.updateTable('users').set(values).where('uid', '=', uid).execute();
}

/** An accepted connection between two users. */
export async function befriend(t: TestApp, a: string, b: string, status = 'accepted'): Promise<void> {
  const now = t.clock.now();
  await t.db
    .insertInto('connections')
    .values({ id: newId(), initiator_uid: a, receiver_uid: b, status, created_at: now, last_modified: now })
    .execute();
}

export interface EventOverrides {
  uid: string;
  name?: string;
  timestamp?: number;
  xp?: number;
  resultId?: string;
  result?: Partial<ResultSavedEvent['result']>;
  account?: Partial<ResultSavedEvent['account']>;
}

/** What the results feature hands to its post-commit hooks for an accepted result (for boards needing many). */
export function savedEvent(t: TestApp, o: EventOverrides): ResultSavedEvent {
  return {
    uid: o.uid,
    resultId: o.resultId ?? newId(),
    timestamp: o.timestamp ?? Math.floor(t.clock.now() / 1000) * 1000,
    isPb: true,
    held: false,
    xp: o.xp ?? 0,
    result: {
      wpm: 100,
      rawWpm: 102,
      acc: 95,
      mode: 'time',
      mode2: '15',
      language: 'english',
      timestamp: 1,
      testDuration: 15,
      consistency: 80,
      hash: 'h',
      afkDuration: 0,
      incompleteTestSeconds: 0,
      incompleteTests: [],
      restartCount: 0,
      punctuation: false,
      numbers: false,
      funbox: [],
      tags: [],
      bailedOut: false,
      blindMode: false,
      lazyMode: false,
      stopOnLetter: false,
      difficulty: 'normal',
      ...o.result,
    } as ResultSavedEvent['result'],
    account: {
      name: o.name ?? 'someone',
      banned: false,
      lbOptOut: false,
      timeTypingBefore: 10_000,
      premiumExpiresAt: null,
      chatId: null,
      chatAvatar: null,
      streak: 1,
      ...o.account,
    },
  };
}

/** Runs the leaderboard post-commit step for an event, as `POST /results` does after its commit. */
export function afterResult(t: TestApp, event: ResultSavedEvent) {
  return t.app.get(LeaderboardHooks).afterResult(event);
}
