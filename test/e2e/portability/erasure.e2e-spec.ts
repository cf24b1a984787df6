import { sql } from 'kysely';
import { LeaderboardJobsService } from '../../../src/modules/leaderboards/leaderboard-jobs.service';
import { LeaderboardSnapshotService } from '../../../src/modules/leaderboards/leaderboard-snapshot.service';
import {
  DATA_RECORD_TYPES,
  type DataRecordType,
  type ExportRecords,
} from '../../../src/modules/portability/export/export-format';
import { DERIVED_TABLES, RECORD_TYPES } from './export-storage';
import { keysMatching } from '../../support/redis-keys';
import { createTestApp, type TestApp } from '../../support/test-app';
import {
  DAY,
  FULL_CONFIGURATION,
  fetchExport,
  parseExport,
  recordsOf,
  seedFullAccount,
  type FullAccount,
  type ParsedExport,
} from './support';

/**
 * Issue 22, item 5: erasure is complete, proven by the export's own list. The checklist below names, for every record
 * type of the export, the columns that tie its rows to the account and what an account reset does to it; a record
 * type it does not know fails the test, so a new kind of data cannot be exported without being erased too.
 */
type ResetRule =
  | 'cleared'
  | 'kept'
  | ((before: ExportRecords[DataRecordType][], after: ExportRecords[DataRecordType][]) => void);

interface Check {
  /** Columns (by table) whose value is the account's uid on its rows. */
  owners: Record<string, string[]>;
  reset: ResetRule;
}

const expectAccountReset: ResetRule = (before, after) => {
  const [was, now] = [before[0] as ExportRecords['account'], after[0] as ExportRecords['account']];
  // Domain facts §5.10: stats, XP, streak (not its hour offset), profile, chat link, opt-out and board ranks go...
  expect(now).toEqual({
    ...was,
    xp: 0,
    completedTests: 0,
    startedTests: 0,
    timeTyping: 0,
    streak: { length: 0, maxLength: 0, lastResultTimestamp: 0, hourOffset: was.streak.hourOffset },
    lastResultAt: null,
    profile: { bio: '', keyboard: '', socialProfiles: {}, showActivityOnPublicProfile: false },
    chat: { id: null, avatar: null },
    lbOptOut: false,
    derived: { isPremium: was.derived.isPremium, allTimeLbs: { time: { '15': {}, '60': {} } } },
  });
  // ...name, email, premium, badges, bans and permissions stay.
  expect(was.streak.hourOffset).toBe(2);
  expect(was.xp).toBeGreaterThan(0);
};

const emptyObject: ResetRule = (_before, after) => expect(after).toEqual([{}]);

const CHECKLIST: Record<string, Check> = {
  account: { owners: { users: ['uid'], user_permissions: ['uid'] }, reset: expectAccountReset },
  favoriteQuotes: { owners: { users: ['uid'] }, reset: emptyObject },
  leaderboardMemory: { owners: { users: ['uid'] }, reset: emptyObject },
  personalBest: { owners: { personal_bests: ['uid'] }, reset: 'cleared' },
  tag: { owners: { tags: ['uid'], tag_personal_bests: ['uid'] }, reset: 'cleared' },
  preset: { owners: { presets: ['uid'] }, reset: 'cleared' },
  config: { owners: { user_configs: ['uid'] }, reset: 'cleared' },
  customTheme: { owners: { custom_themes: ['uid'] }, reset: 'cleared' },
  resultFilterPreset: { owners: { result_filter_presets: ['uid'] }, reset: 'kept' },
  inboxMail: { owners: { inbox_mail: ['uid'] }, reset: 'cleared' },
  connection: { owners: { connections: ['initiator_uid', 'receiver_uid'] }, reset: 'kept' },
  apeKey: { owners: { ape_keys: ['uid'] }, reset: 'cleared' },
  testActivity: { owners: { test_activity: ['uid'] }, reset: 'cleared' },
  quoteRating: { owners: { user_quote_ratings: ['uid'] }, reset: 'kept' },
  quoteSubmission: { owners: { new_quotes: ['uid'] }, reset: 'kept' },
  report: { owners: { quote_reports: ['uid'] }, reset: 'kept' },
  approvedQuote: { owners: { quotes: ['submitted_by', 'approved_by_uid'] }, reset: 'kept' },
  resultReview: { owners: { result_reviews: ['uid'] }, reset: 'cleared' },
  refusedResult: { owners: { refused_results: ['uid'] }, reset: 'cleared' },
  result: { owners: { results: ['uid'] }, reset: 'cleared' },
};

/** Sunday 2026-11-29 10:00 UTC: the next day closes a daily board and an ISO week. */
const SUNDAY = Date.UTC(2026, 10, 29, 10, 0, 0);

describe('erasure and reset, checked against the export record types', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      now: SUNDAY,
      configuration: {
        ...FULL_CONFIGURATION,
        dailyLeaderboards: {
          scheduleRewardsModeRules: [{ language: 'english', mode: 'time', mode2: '60' }],
          xpRewardBrackets: [{ minRank: 1, maxRank: 5, minReward: 10, maxReward: 50 }],
          topResultsToAnnounce: 5,
        },
        leaderboards: {
          weeklyXp: {
            enabled: true,
            xpRewardBrackets: [{ minRank: 1, maxRank: 5, minReward: 5, maxReward: 20 }],
          },
        },
      },
      env: { rateLimit: { globalPerMinute: 100_000, overrides: { userExport: { max: 1000 } } } },
    });
  });
  afterAll(() => t.close());

  const exportOf = async (uid: string): Promise<ParsedExport> => {
    const res = await fetchExport(t, await t.bearer(uid));
    expect(res.status).toBe(200);
    return parseExport(res.text);
  };

  it('knows every record type of the export, and only those', () => {
    expect(DATA_RECORD_TYPES.filter((type) => !(type in CHECKLIST))).toEqual([]);
    expect(
      Object.keys(CHECKLIST).filter((type) => !DATA_RECORD_TYPES.includes(type as DataRecordType)),
    ).toEqual([]);
    for (const type of DATA_RECORD_TYPES) {
      const tables = Object.keys(RECORD_TYPES[type].columns);
      expect({
        type,
        owners: Object.keys(CHECKLIST[type]!.owners).filter((t) => !tables.includes(t)),
      }).toEqual({
        type,
        owners: [],
      });
    }
  });

  /** Rows still tied to `uid` through each record type's owner columns. */
  const remaining = async (uid: string): Promise<Record<string, number>> => {
    const counts: Record<string, number> = {};
    for (const type of DATA_RECORD_TYPES) {
      let n = 0;
      for (const [table, columns] of Object.entries(CHECKLIST[type]!.owners)) {
        const match = sql.join(
          columns.map((c) => sql`${sql.ref(c)} = ${uid}`),
          sql` OR `,
        );
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${match}`.execute(t.db);
        n += rows[0]!.n;
      }
      counts[type] = n;
    }
    return counts;
  };

  /** Every column of every table (partitions included), as text, in which `needle` appears (case-insensitively). */
  const mentions = async (needle: string): Promise<string[]> => {
    const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
      SELECT c.table_name, c.column_name FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'`.execute(t.db);
    const found: string[] = [];
    for (const { table_name, column_name } of columns) {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM ${sql.table(table_name)}
        WHERE position(lower(${needle}) in lower(${sql.ref(column_name)}::text)) > 0`.execute(t.db);
      if (rows[0]!.n > 0) found.push(`${table_name}.${column_name}: ${rows[0]!.n}`);
    }
    return found;
  };

  /**
   * The all-time boards' change queue (`leaderboard_best_changes`) is a work queue of (uid, board) pairs, filled by the
   * personal-best trigger as the rows go and drained by the live update every 15 s: it is the one place that holds
   * a deleted uid for that long. The checks run after the tick, as a deployment sees them.
   */
  const liveUpdateTick = async () => {
    expect(await t.app.get(LeaderboardSnapshotService).applyLiveChanges()).not.toBeNull();
  };

  /** Derived rows of the account: the all-time boards' tables. */
  const derivedRows = async (uid: string): Promise<Record<string, number>> => {
    const out: Record<string, number> = {};
    for (const table of Object.keys(DERIVED_TABLES)) {
      const { rows } = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE uid = ${uid}`.execute(t.db);
      out[table] = rows[0]!.n;
    }
    return out;
  };

  /** Board keys (daily, weekly XP) holding the account, and other keys that name it without expiring. */
  const redisTraces = async (uid: string): Promise<{ boards: string[]; lasting: string[] }> => {
    const boards: string[] = [];
    const lasting: string[] = [];
    const redis = t.redis;
    for (const key of await keysMatching(t, '*')) {
      const type = await redis.type(key);
      let holds = key.includes(uid);
      if (type === 'zset') holds ||= (await redis.zscore(key, uid)) !== null;
      if (type === 'hash')
        holds ||=
          (await redis.hexists(key, uid)) === 1 || (await redis.hvals(key)).some((v) => v.includes(uid));
      if (type === 'string') holds ||= ((await redis.get(key)) ?? '').includes(uid);
      if (!holds) continue;
      if (key.startsWith('lb:')) boards.push(key);
      // Rate-limit counters and token-revocation markers are keyed by uid and expire on their own.
      else if ((await redis.pttl(key)) < 0 || (await redis.pttl(key)) > DAY) lasting.push(key);
    }
    return { boards, lasting };
  };

  describe('DELETE /users', () => {
    let gone: FullAccount;
    let survivor: FullAccount;
    let survivorBefore: ParsedExport;
    let email: string;

    beforeAll(async () => {
      gone = await seedFullAccount(t, 'ErasedUser1');
      survivor = await seedFullAccount(t, 'Survivor1');
      await t.db
        .insertInto('connections')
        .values({
          id: 'c0ffee0000000000000000bb',
          initiator_uid: survivor.uid,
          receiver_uid: gone.uid,
          status: 'accepted',
          created_at: t.clock.now(),
          last_modified: t.clock.now(),
        })
        .execute();
      // Monday 00:01: yesterday's daily boards and last week's XP board close, with reward mails; the announced
      // standings of both periods list the account.
      t.clock.set(SUNDAY + 14 * 3600_000 + 61_000);
      const report = await t.app.get(LeaderboardJobsService).runDueJobs();
      expect(report).toMatchObject({ dailyClosed: true, weeklyClosed: true });

      // Everything the checks below look for is there before the deletion (so each check can fail).
      const before = await exportOf(gone.uid);
      for (const type of DATA_RECORD_TYPES) {
        expect({ type, exported: recordsOf(before, type).length > 0 }).toEqual({ type, exported: true });
      }
      const owned = await remaining(gone.uid);
      for (const type of DATA_RECORD_TYPES)
        expect({ type, rows: owned[type]! > 0 }).toEqual({ type, rows: true });
      expect((await redisTraces(gone.uid)).boards.length).toBeGreaterThanOrEqual(2);
      const traces = await mentions(gone.uid);
      for (const place of [
        'leaderboard_job_runs.details',
        'quote_reports.content_id',
        'quotes.submitted_by',
        // The stranger's review the account decided as a moderator.
        'result_reviews.decided_by',
      ]) {
        expect(traces.some((m) => m.startsWith(`${place}:`))).toBe(true);
      }
      expect((await derivedRows(gone.uid)).leaderboard_bests).toBeGreaterThan(0);
      expect((await mentions('ErasedUser1')).length).toBeGreaterThan(0);
      email = (
        await t.db.selectFrom('users').select('email').where('uid', '=', gone.uid).executeTakeFirstOrThrow()
      ).email;
      expect(email).toContain('@');
      expect(await mentions(email)).toEqual(['users.email: 1']);
      survivorBefore = await exportOf(survivor.uid);

      const res = await t.request('DELETE', '/users', { auth: await t.bearer(gone.uid) });
      expect(res.status).toBe(200);
      await liveUpdateTick();
    });

    it('leaves no row of any record type', async () => {
      const left = await remaining(gone.uid);
      expect(Object.entries(left).filter(([, n]) => n > 0)).toEqual([]);
    });

    it('leaves the uid, the name and the email address nowhere in any column of any table', async () => {
      expect(await mentions(gone.uid)).toEqual([]);
      expect(await mentions('ErasedUser1')).toEqual([]);
      expect(await mentions(email)).toEqual([]);
      expect(await derivedRows(gone.uid)).toEqual(
        Object.fromEntries(Object.keys(DERIVED_TABLES).map((k) => [k, 0])),
      );
    });

    it('takes it off every board in Redis (daily, weekly XP, this period and the closed one)', async () => {
      expect(await redisTraces(gone.uid)).toEqual({ boards: [], lasting: [] });
    });

    it('keeps the approved quote it submitted, without naming it', async () => {
      const quote = await t.db
        .selectFrom('quotes')
        .select(['submitted_by', 'text'])
        .where('text', '=', gone.quoteText)
        .executeTakeFirstOrThrow();
      expect(quote.submitted_by).toBe('');
    });

    it("keeps the decision it made on another user's held result, without naming it", async () => {
      const review = await t.db
        .selectFrom('result_reviews')
        .select(['status', 'decided_by', 'decided_at', 'decision_reason'])
        .where('result_id', '=', gone.rejectedByAccount)
        .executeTakeFirstOrThrow();
      expect(review).toEqual({
        status: 'rejected',
        decided_by: null,
        decided_at: expect.any(Number) as number,
        decision_reason: 'bot-like',
      });
    });

    it('changes nothing of another account but the connection to it (and its ranks move up)', async () => {
      const after = await exportOf(survivor.uid);
      const comparable = (parsed: ParsedExport) =>
        parsed.records
          .filter((r) => !(r.type === 'connection' && JSON.stringify(r.data).includes(gone.uid)))
          .map((r) => (r.type === 'account' ? { ...r, data: { ...r.data, derived: null } } : r));
      expect(comparable(after)).toEqual(comparable(survivorBefore));
      expect(after.records.length).toBe(survivorBefore.records.length - 1);
      const rank = (parsed: ParsedExport) =>
        recordsOf(parsed, 'account')[0]!.derived.allTimeLbs.time['60'].english;
      expect(rank(survivorBefore)).toEqual({ rank: 2, count: 2 });
      expect(rank(after)).toEqual({ rank: 1, count: 1 });
    });

    it('classifies every table that holds a uid: an export source or derived from one', async () => {
      const { rows } = await sql<{ table_name: string }>`
        SELECT DISTINCT coalesce(root.relname, c.table_name) AS table_name
        FROM information_schema.columns c
        JOIN pg_class cls ON cls.relname = c.table_name AND cls.relnamespace = 'public'::regnamespace
        LEFT JOIN pg_class root ON root.oid = pg_partition_root(cls.oid) AND root.oid <> cls.oid
        WHERE c.table_schema = 'public' AND (c.column_name = 'uid' OR c.column_name LIKE '%\\_uid' OR c.column_name = 'submitted_by')`.execute(
        t.db,
      );
      const sources = new Set(DATA_RECORD_TYPES.flatMap((type) => Object.keys(RECORD_TYPES[type].columns)));
      const unclassified = rows
        .map((r) => r.table_name)
        .filter((table) => !sources.has(table) && !(table in DERIVED_TABLES));
      expect(unclassified).toEqual([]);
    });
  });

  describe('PATCH /users/reset', () => {
    let account: FullAccount;
    let before: ParsedExport;
    let after: ParsedExport;

    beforeAll(async () => {
      account = await seedFullAccount(t, 'ResetUser1');
      before = await exportOf(account.uid);
      for (const type of DATA_RECORD_TYPES) {
        expect({ type, exported: recordsOf(before, type).length > 0 }).toEqual({ type, exported: true });
      }
      expect((await redisTraces(account.uid)).boards.length).toBeGreaterThan(0);
      const res = await t.request('PATCH', '/users/reset', { auth: await t.bearer(account.uid) });
      expect(res.status).toBe(200);
      await liveUpdateTick();
      after = await exportOf(account.uid);
    });

    it.each(DATA_RECORD_TYPES)('%s: cleared or kept as a reset does', (type) => {
      const rule = CHECKLIST[type]!.reset;
      const [was, now] = [recordsOf(before, type), recordsOf(after, type)];
      if (rule === 'cleared') expect(now).toEqual([]);
      else if (rule === 'kept') expect(now).toEqual(was);
      else rule(was, now);
    });

    it('leaves no derived rows and no board entries of the account', async () => {
      expect(await derivedRows(account.uid)).toEqual(
        Object.fromEntries(Object.keys(DERIVED_TABLES).map((k) => [k, 0])),
      );
      expect((await redisTraces(account.uid)).boards).toEqual([]);
    });
  });
});
