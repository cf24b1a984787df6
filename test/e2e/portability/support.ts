import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { newId } from '../../../src/common/ids';
import { InboxService } from '../../../src/modules/inbox/inbox.service';
import { LeaderboardSnapshotService } from '../../../src/modules/leaderboards/leaderboard-snapshot.service';
import { ResultReviewService } from '../../../src/modules/results/review/result-review.service';
import type { SignatureData } from '../../../src/modules/portability/signing/account-file-signature';
import { AccountFileSigningService } from '../../../src/modules/portability/signing/account-file-signing.service';
import type {
  DataRecordType,
  EndData,
  ExportHeader,
  ExportRecord,
  ExportRecords,
} from '../../../src/modules/portability/export/export-format';
import { createUser } from '../../support/factories';
import type { TestApp } from '../../support/test-app';
import { clientResult, createTag, signed, submit, submitOk } from '../results/result-factory';

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** Features on that put a user into every store: XP (weekly board), premium, result filter presets. */
export const FULL_CONFIGURATION = {
  users: {
    premium: { enabled: true },
    xp: { enabled: true, gainMultiplier: 1 },
  },
  leaderboards: { weeklyXp: { enabled: true } },
  results: { filterPresets: { enabled: true, maxPresetsPerUser: 5 } },
};

/** Secrets planted in the stores, none of which may appear in an export. */
export const PLANTED_SECRETS = {
  apeKeyHash: '$2b$04$PLANTEDapeKEYhashTHATmustNEVERleaveTHEdatabase00000000',
  resultHash: 'plantedresulthash0123456789abcdef',
};

export interface FullAccount {
  uid: string;
  name: string;
  friendUid: string;
  strangerUid: string;
  tagId: string;
  resultIds: string[];
  /** Its result held for review (above the ceiling: its 15-second personal best is held off the boards). */
  heldResultId: string;
  /** The stranger's held result that the account, as a moderator, rejected. */
  rejectedByAccount: string;
  /** Texts of its pending submission and of its approved quote (neither names the account). */
  submissionText: string;
  quoteText: string;
}

/**
 * An account with a row in every table a user owns, written the way the app writes it where a route or service
 * exists (results through POST /results: personal bests, tag bests, activity, streak, XP and the daily and weekly
 * boards), directly otherwise. Also a friend (accepted connection), a pending request from a stranger, a report
 * about the account, and an approved quote it submitted. The clock moves forward.
 */
export async function seedFullAccount(
  t: TestApp,
  name: string,
  options: { premium?: boolean } = {},
): Promise<FullAccount> {
  const now = () => t.clock.now();
  const user = await createUser(t.db, {
    name,
    timeTyping: 10_000,
    permissions: ['quoteMod'],
    premiumExpiresAt: options.premium === false ? null : now() + 30 * DAY,
  });
  const { uid } = user;
  const friend = await createUser(t.db);
  const stranger = await createUser(t.db);
  const tagId = await createTag(t.db, uid, 'focus');
  // Before the results: the boards' entries carry the badge and the chat link as they were at each result.
  await t.db
    .updateTable('users')
    .set({
      inventory_badges: JSON.stringify([{ id: 3, selected: true }]),
      chat_id: `chat-${uid}`,
      chat_avatar: 'avatar-hash',
    })
    .where('uid', '=', uid)
    .execute();

  const resultIds: string[] = [];
  for (const [mode2, tags] of [
    ['15', [tagId]],
    ['60', []],
  ] as const) {
    t.clock.advance(5 * MINUTE);
    const saved = await submitOk(t, uid, { mode2, testDuration: Number(mode2), tags, wpm: 90, rawWpm: 92 });
    resultIds.push(saved.insertedId);
  }
  // Above the 15-second ceiling: saved, its personal best held off the boards until a moderator decides.
  const held = async (who: string) => {
    t.clock.advance(5 * MINUTE);
    const saved = await submitOk(t, who, {
      ...{ mode2: '15', testDuration: 15, wpm: 270, rawWpm: 271, acc: 97 },
      ...{ afkDuration: 0, incompleteTestSeconds: 0, incompleteTests: [] },
    });
    return saved.insertedId;
  };
  const heldResultId = await held(uid);
  resultIds.push(heldResultId);
  // A result the anti-cheat refuses (a wpm its characters do not make): never saved, kept in the quarantine.
  t.clock.advance(5 * MINUTE);
  const refused = await submit(
    t,
    uid,
    signed({ ...clientResult({ mode2: '60', testDuration: 60 }), wpm: 250 }, uid),
  );
  if (refused.status !== 463) throw new Error(`the forged result was answered ${refused.status}, not 463`);
  const rejectedByAccount = await held(stranger.uid);
  await t.app.get(ResultReviewService).reject(uid, [{ resultId: rejectedByAccount, reason: 'bot-like' }]);
  await t.db
    .updateTable('users')
    .set({
      last_result_hashes: [PLANTED_SECRETS.resultHash],
      profile_bio: 'types a lot',
      profile_keyboard: 'split',
      profile_social_profiles: JSON.stringify({ github: name }),
      profile_show_activity: true,
      favorite_quotes: JSON.stringify({ english: ['12', '40'] }),
      lb_memory: JSON.stringify({ time: { '60': { english: 4 } } }),
      streak_hour_offset: 2,
      last_name_change_at: now() - DAY,
      premium_start_at: options.premium === false ? null : now() - DAY,
    })
    .where('uid', '=', uid)
    .execute();

  const created = now();
  const submissionText = `a pending quote ${newId()}`;
  const quoteText = `an approved quote ${newId()}`;
  await t.db
    .insertInto('presets')
    .values({
      id: newId(),
      uid,
      name: 'sprint',
      config: JSON.stringify({ mode: 'time' }),
      setting_groups: ['test'],
      created_at: created,
    })
    .execute();
  await t.db
    .insertInto('user_configs')
    .values({ uid, config: JSON.stringify({ theme: 'serika' }), updated_at: created })
    .execute();
  await t.db
    .insertInto('custom_themes')
    .values({
      id: newId(),
      uid,
      name: 'night',
      colors: JSON.stringify(Array(10).fill('#111111')),
      created_at: created,
    })
    .execute();
  await t.db
    .insertInto('result_filter_presets')
    .values({
      id: newId(),
      uid,
      // As POST /users/resultFilterPresets stores one (its filters, under the route's rules).
      name: 'only_60',
      filters: JSON.stringify({
        pb: { no: true, yes: true },
        difficulty: { normal: true, expert: false, master: false },
        mode: { time: true, words: false, quote: false, zen: false, custom: false },
        words: { '10': false, '25': false, '50': false, '100': false, custom: false },
        time: { '15': false, '30': false, '60': true, '120': false, custom: false },
        quoteLength: { short: true, medium: true, long: true, thicc: true },
        punctuation: { on: false, off: true },
        numbers: { on: false, off: true },
        date: { last_day: false, last_week: false, last_month: false, last_3months: false, all: true },
        tags: { none: true },
        language: { english: true },
        funbox: { none: true },
      }),
      created_at: created,
    })
    .execute();
  await t.app
    .get(InboxService)
    .send(uid, { subject: 'Welcome', body: 'hello', rewards: [{ type: 'xp', item: 50 }] });
  await t.db
    .insertInto('ape_keys')
    .values({
      id: newId(),
      uid,
      name: 'script',
      enabled: true,
      hash: PLANTED_SECRETS.apeKeyHash,
      created_on: created,
      modified_on: created,
    })
    .execute();
  await t.db
    .insertInto('connections')
    .values([
      {
        id: newId(),
        initiator_uid: uid,
        receiver_uid: friend.uid,
        status: 'accepted',
        created_at: created,
        last_modified: created,
      },
      {
        id: newId(),
        initiator_uid: stranger.uid,
        receiver_uid: uid,
        status: 'pending',
        created_at: created,
        last_modified: created,
      },
    ])
    .execute();
  await t.db
    .insertInto('user_quote_ratings')
    .values({ uid, language: 'english', quote_id: 7, rating: 4 })
    .execute();
  await t.db
    .insertInto('new_quotes')
    .values({
      id: newId(),
      uid,
      text: submissionText,
      source: 'me',
      language: 'english',
      submitted_at: created,
    })
    .execute();
  await t.db
    .insertInto('quotes')
    .values({
      language: 'english',
      id: 900_000 + Math.floor(Math.random() * 90_000),
      text: quoteText,
      source: 'book',
      length: 30,
      submitted_by: uid,
      approved_by_uid: friend.uid,
      approved_by: friend.name,
      approved_at: created,
    })
    .execute();
  await t.db
    .insertInto('quote_reports')
    .values([
      {
        id: crypto.randomUUID(),
        uid,
        type: 'quote',
        content_id: 'english-7',
        quote_id: 7,
        quote_language: 'english',
        reason: 'Inappropriate content',
        comment: 'rude',
        created_at: created,
      },
      {
        id: crypto.randomUUID(),
        uid: stranger.uid,
        type: 'user',
        content_id: uid,
        quote_id: null,
        quote_language: null,
        reason: 'Inappropriate name',
        comment: '',
        created_at: created,
      },
    ])
    .execute();
  // The all-time snapshot, so the account has board entries (and ranks) too.
  await t.app.get(LeaderboardSnapshotService).rebuild();
  return {
    uid,
    name,
    friendUid: friend.uid,
    strangerUid: stranger.uid,
    tagId,
    resultIds,
    heldResultId,
    rejectedByAccount,
    submissionText,
    quoteText,
  };
}

/**
 * `count` results written straight to the table (oldest first), `sameTime` of them sharing one timestamp so the
 * order needs its tie-break; returns their ids in the export's order (timestamp, then id).
 */
export async function seedResults(t: TestApp, uid: string, count: number, start: number): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    INSERT INTO results (id, uid, timestamp, name, wpm, raw_wpm, acc, consistency, mode, mode2, language,
                         test_duration, chart_data, char_stats)
    SELECT md5(${uid} || ${start}::text || k::text), ${uid}, ${start}::bigint + (k / 3) * 1000, 'bulk', 50 + (k % 50), 52 + (k % 50), 95, 80,
           'time', '15', 'english', 15, jsonb_build_object('wpm', jsonb_build_array(k, k + 1), 'burst', jsonb_build_array(k, k + 1), 'err', jsonb_build_array(0, 0)),
           ARRAY[k, 0, 0, 0]
    FROM generate_series(1, ${count}) AS k
    RETURNING id`.execute(t.db);
  const { rows: ordered } = await sql<{ id: string }>`
    SELECT id FROM results WHERE uid = ${uid} AND id = ANY(${rows.map((r) => r.id)}) ORDER BY timestamp, id`.execute(
    t.db,
  );
  return ordered.map((r) => r.id);
}

export interface ParsedExport {
  header: ExportHeader;
  records: Exclude<ExportRecord, { type: 'end' }>[];
  end: EndData | undefined;
  /** The signature line's data, when the file has one. */
  signature: SignatureData | undefined;
  /** Every line but the signature line. */
  lines: string[];
  text: string;
}

/** Splits an export into its header, records, trailer and signature; every line must be JSON. */
export function parseExport(text: string): ParsedExport {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const values = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  let signature: SignatureData | undefined;
  if (values.at(-1)?.type === 'signature') {
    signature = values.pop()!.data as SignatureData;
    lines.pop();
  }
  const header = values[0] as unknown as ExportHeader;
  const last = values[values.length - 1] as unknown as ExportRecord | undefined;
  const hasEnd = last?.type === 'end';
  return {
    header,
    records: values.slice(1, hasEnd ? -1 : undefined) as unknown as ParsedExport['records'],
    end: hasEnd ? (last.data as EndData) : undefined,
    signature,
    lines,
    text,
  };
}

export function recordsOf<K extends DataRecordType>(parsed: ParsedExport, type: K): ExportRecords[K][] {
  return parsed.records.filter((r) => r.type === type).map((r) => r.data as ExportRecords[K]);
}

/** GET /users/export through the app (in process), with the body decoded as the client would. */
export async function fetchExport(
  t: TestApp,
  auth: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string; raw: Buffer }> {
  const res = await t.app.inject({
    method: 'GET',
    url: '/users/export',
    headers: { ...(auth ? { authorization: auth } : {}), ...headers },
  });
  const raw = res.rawPayload;
  const text =
    res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
  return { status: res.statusCode, headers: res.headers, text, raw };
}

/** `to` trusts the files `from` signs (what `instances trust <publicKey> --instance <id>` does). */
export async function trustInstance(from: TestApp, to: TestApp): Promise<void> {
  const signer = await from.app.get(AccountFileSigningService).identity();
  await to.app
    .get(AccountFileSigningService)
    .trust(signer.publicKey, signer.instanceId, 'the source of the test');
}
