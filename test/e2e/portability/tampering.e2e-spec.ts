import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import { runCli } from '../../../src/cli/run-cli';
import { DATA_RECORD_TYPES } from '../../../src/modules/portability/export/export-format';
import {
  InstanceKey,
  newKeyPair,
  privateKeyFrom,
} from '../../../src/modules/portability/signing/account-file-signature';
import { LeaderboardSnapshotService } from '../../../src/modules/leaderboards/leaderboard-snapshot.service';
import { ResultReviewService } from '../../../src/modules/results/review/result-review.service';
import { createUser } from '../../support/factories';
import { redisEnvOf } from '../../support/stores';
import { createTestApp, type TestApp } from '../../support/test-app';
import { submitOk } from '../results/result-factory';
import {
  DAY,
  FULL_CONFIGURATION,
  parseExport,
  seedFullAccount,
  trustInstance,
  type FullAccount,
} from './support';

type Rec = { type: string; data: Record<string, unknown> };

/** Boards count any typing time here, so a board place depends only on what was held. */
const CONFIGURATION = {
  ...FULL_CONFIGURATION,
  leaderboards: { ...FULL_CONFIGURATION.leaderboards, minTimeTyping: 0 },
};
const BOARDS = ['15', '60'] as const;

/**
 * Issue 29, item 3: the tampering matrix. An account exported on one instance, its file edited as its user could, and
 * imported on another instance that trusts the first one's key. No edited file takes the trusted path: without
 * `--untrusted` it is refused and nothing is written; with it, the account and the boards end as they end after an
 * untrusted import of the unedited file, or with less: no flag, premium, badge, XP, board place, release of a held
 * result, effect on another user's result, or friendship comes from an edit. Each import runs on a fresh instance.
 */
describe('tampering matrix: an edited account file gains nothing', () => {
  let source: TestApp;
  let refusing: TestApp;
  let dir: string;
  let account: FullAccount;
  let text: string;
  let records: Rec[];
  let header: string;
  let signature: string;
  /** Users of every target instance: one the file befriends, one whose held result the file reviews. */
  const FRIEND = 'friend-on-target';
  const NEIGHBOUR = 'neighbour-on-target';
  let clean: State;

  async function cli(t: TestApp, ...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const env = { DATABASE_URL: t.stores.databaseUrl, ...redisEnvOf(t.stores), LOG_LEVEL: 'silent' };
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  /** A fresh target instance that trusts the source, with a friend and a neighbour (whose result is on a board). */
  async function target(): Promise<TestApp & { neighbourResult: string }> {
    const t = await createTestApp({ configuration: CONFIGURATION });
    await trustInstance(source, t);
    await createUser(t.db, { uid: FRIEND, name: 'TargetFriend' });
    await createUser(t.db, { uid: NEIGHBOUR, name: 'Neighbour', timeTyping: 10_000 });
    const saved = await submitOk(t, NEIGHBOUR, { mode2: '15', testDuration: 15, wpm: 80, rawWpm: 81 });
    return Object.assign(t, { neighbourResult: saved.insertedId });
  }

  /** The file with `edit` applied to its records, its end line recounted, ending with `sign`'s line. */
  function file(
    name: string,
    edit: (records: Rec[]) => Rec[],
    sign: (body: string) => string = () => signature,
  ) {
    // Grouped by type in the format's order, as the format wants it (an edit appends at the end).
    const order = (r: Rec) => (DATA_RECORD_TYPES as readonly string[]).indexOf(r.type);
    const edited = edit(structuredClone(records)).sort((a, b) => order(a) - order(b));
    const counts: Record<string, number> = {};
    for (const r of edited) counts[r.type] = (counts[r.type] ?? 0) + 1;
    const body =
      [
        header,
        ...edited.map((r) => JSON.stringify(r)),
        JSON.stringify({ type: 'end', data: { records: edited.length, counts } }),
      ].join('\n') + '\n';
    const path = join(dir, `${name}.ndjson`);
    const last = sign(body);
    writeFileSync(path, body + (last === '' ? '' : `${last}\n`));
    return path;
  }
  const dataOf = (rs: Rec[], type: string) => rs.filter((r) => r.type === type).map((r) => r.data);
  const accountOf = (rs: Rec[]) => dataOf(rs, 'account')[0]!;

  interface State {
    xp: number;
    completedTests: number;
    premium: { expiresAt: number | null; isPremium: boolean };
    badges: unknown;
    canReport: boolean;
    canManageApeKeys: boolean;
    banned: boolean;
    chatId: string | null;
    permissions: number;
    /** The account's best wpm per bucket, and whether each is held off the boards. */
    bests: Record<string, { wpm: number; held: boolean }>;
    /** Its results held for review. */
    held: number;
    /** Whether it stands on the all-time English time 15 and 60 boards, the daily ones and this week's XP board. */
    boards: Record<string, boolean>;
    friendships: number;
    /** Requests from the account waiting for the other user. */
    requests: number;
    mailRewards: number;
    /** The neighbour's result: reviewed by nobody, and the neighbour still on the time 15 board. */
    neighbour: { reviews: number; onBoard: boolean };
  }

  async function onBoard(
    t: TestApp,
    url: string,
    query: Record<string, string>,
    uid: string,
  ): Promise<boolean> {
    const res = await t.request<{ data: unknown }>('GET', url, { query });
    expect(res.status).toBe(200);
    const data = res.body.data as { entries?: { uid: string }[] } | { uid: string }[] | null;
    const entries = Array.isArray(data) ? data : (data?.entries ?? []);
    return entries.some((e) => e.uid === uid);
  }

  async function stateOf(t: TestApp & { neighbourResult: string }, uid: string): Promise<State> {
    const u = await t.db.selectFrom('users').selectAll().where('uid', '=', uid).executeTakeFirstOrThrow();
    const profile = await t.request<{ data: { isPremium: boolean } }>('GET', '/users', {
      auth: await t.bearer(uid),
    });
    const count = async (query: RawBuilder<{ n: number }>) => (await query.execute(t.db)).rows[0]!.n;
    const bests = await t.db.selectFrom('personal_bests').selectAll().where('uid', '=', uid).execute();
    const boards: Record<string, boolean> = {};
    for (const mode2 of BOARDS) {
      const query = { language: 'english', mode: 'time', mode2 };
      boards[`allTime${mode2}`] = await onBoard(t, '/leaderboards', query, uid);
      boards[`daily${mode2}`] = await onBoard(t, '/leaderboards/daily', query, uid);
    }
    boards.weeklyXp = await onBoard(t, '/leaderboards/xp/weekly', {}, uid);
    return {
      xp: u.xp,
      completedTests: u.completed_tests,
      premium: { expiresAt: u.premium_expires_at, isPremium: profile.body.data.isPremium },
      badges: u.inventory_badges,
      canReport: u.can_report,
      canManageApeKeys: u.can_manage_ape_keys,
      banned: u.banned,
      chatId: u.chat_id,
      permissions: await count(sql`SELECT count(*)::int AS n FROM user_permissions WHERE uid = ${uid}`),
      bests: Object.fromEntries(
        bests.map((b) => [`${b.mode} ${b.mode2}`, { wpm: b.wpm, held: b.held_result_id !== null }]),
      ),
      held: await count(
        sql`SELECT count(*)::int AS n FROM result_reviews WHERE uid = ${uid} AND status = 'held'`,
      ),
      boards,
      friendships: await count(
        sql`SELECT count(*)::int AS n FROM connections WHERE status = 'accepted' AND ${uid} IN (initiator_uid, receiver_uid)`,
      ),
      requests: await count(
        sql`SELECT count(*)::int AS n FROM connections WHERE status = 'pending' AND initiator_uid = ${uid}`,
      ),
      mailRewards: await count(
        sql`SELECT count(*)::int AS n FROM inbox_mail WHERE uid = ${uid} AND jsonb_array_length(rewards) > 0`,
      ),
      neighbour: {
        reviews: await count(
          sql`SELECT count(*)::int AS n FROM result_reviews WHERE result_id = ${t.neighbourResult}`,
        ),
        onBoard: await onBoard(
          t,
          '/leaderboards',
          { language: 'english', mode: 'time', mode2: '15' },
          NEIGHBOUR,
        ),
      },
    };
  }

  /** Imports `path` on a fresh instance with `flags`; returns the run and the account's state there. */
  async function imported(path: string, ...flags: string[]) {
    const t = await target();
    try {
      const run = await cli(t, 'import', 'account', path, ...flags);
      expect({ code: run.code, err: run.code === 0 ? '' : run.err }).toEqual({ code: 0, err: '' });
      return { run, state: await stateOf(t, account.uid) };
    } finally {
      await t.close();
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tampering-'));
    // The source's clock a day behind, so its results are in the past of the CLI's real clock.
    source = await createTestApp({ configuration: CONFIGURATION, now: Date.now() - DAY });
    account = await seedFullAccount(source, 'Tamper1');
    // Support revoked the account's reporting on the source; the file says so.
    await source.db.updateTable('users').set({ can_report: false }).where('uid', '=', account.uid).execute();
    const path = join(dir, 'genuine.ndjson');
    expect((await cli(source, 'users', 'export', account.uid, '--out', path)).code).toBe(0);
    text = readFileSync(path, 'utf8');
    const parsed = parseExport(text);
    header = parsed.lines[0]!;
    records = parsed.records as unknown as Rec[];
    signature = text.trimEnd().split('\n').at(-1)!;
    expect(JSON.parse(signature)).toMatchObject({ type: 'signature' });
    refusing = await target();
    clean = (
      await imported(
        file(
          'unsigned',
          (rs) => rs,
          () => '',
        ),
        '--untrusted',
      )
    ).state;
  }, 120_000);

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await Promise.all([source?.close(), refusing?.close()]);
  });

  it('imports the genuine signed file as it is (the trusted path), with its board place', async () => {
    const { run, state } = await imported(join(dir, 'genuine.ndjson'));
    expect(run.out).toMatch(/^import path: trusted \(signed by trusted instance /m);
    expect(state).toMatchObject({
      canReport: false,
      premium: { isPremium: true },
      badges: [{ id: 3, selected: true }],
    });
    expect(state.xp).toBeGreaterThan(0);
    // The 270 wpm best stays held; the 90 wpm result is the board entry, as on the source.
    expect(state.bests['time 15']).toEqual({ wpm: 270, held: true });
    expect(state.boards.allTime60).toBe(true);
  });

  it('imports the unsigned file only with --untrusted, and then grants nothing the file claims', async () => {
    const unsigned = join(dir, 'unsigned.ndjson');
    const refused = await cli(refusing, 'import', 'account', unsigned);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      'the file is not trusted here: the file is not signed. Nothing was imported.',
    );
    expect(
      await refusing.db.selectFrom('users').select('uid').where('uid', '=', account.uid).executeTakeFirst(),
    ).toBeUndefined();
    expect(clean).toMatchObject({
      // XP and stats from the three results alone (the file says 10,000 s of typing and more XP).
      completedTests: 3,
      premium: { expiresAt: null, isPremium: false },
      badges: [],
      // This instance's defaults: the file neither gives nor takes a flag (the trusted path keeps the revocation).
      canReport: true,
      canManageApeKeys: true,
      chatId: null,
      permissions: 0,
      friendships: 0,
      mailRewards: 0,
      neighbour: { reviews: 0, onBoard: true },
    });
    expect(clean.xp).toBeGreaterThan(0);
    expect(clean.xp).toBeLessThanOrEqual(accountOf(records).xp as number);
    // Every result that could stand on a board waits for a moderator: no board place until one approves.
    expect(clean.held).toBe(3);
    expect(Object.values(clean.boards).some(Boolean)).toBe(false);
    expect(Object.values(clean.bests).every((b) => b.held)).toBe(true);
  });

  it('puts an untrusted import on the boards only once a moderator approves its held results', async () => {
    const t = await target();
    try {
      expect((await cli(t, 'import', 'account', join(dir, 'unsigned.ndjson'), '--untrusted')).code).toBe(0);
      const held = await t.db
        .selectFrom('result_reviews')
        .select(['result_id', 'reasons'])
        .where('uid', '=', account.uid)
        .execute();
      expect(held.every((h) => (h.reasons as { check: string }[]).some((r) => r.check === 'imported'))).toBe(
        true,
      );
      const moderator = await createUser(t.db, { permissions: ['admin'] });
      await t.app.get(ResultReviewService).approve(
        moderator.uid,
        held.map((h) => ({ resultId: h.result_id })),
      );
      await t.app.get(LeaderboardSnapshotService).rebuild();
      const state = await stateOf(t, account.uid);
      expect(state.held).toBe(0);
      // The 90 wpm minute is the entry; the 270 wpm best is released too (its ceiling was a moderator's to judge).
      expect({ allTime15: state.boards.allTime15, allTime60: state.boards.allTime60 }).toEqual({
        allTime15: true,
        allTime60: true,
      });
    } finally {
      await t.close();
    }
  });

  /** The fields a grant would show in: what an edit must not raise above the clean untrusted import. */
  const grants = (s: State) => ({
    xp: s.xp,
    premium: s.premium,
    badges: s.badges,
    canReport: s.canReport,
    canManageApeKeys: s.canManageApeKeys,
    chatId: s.chatId,
    permissions: s.permissions,
    boards: s.boards,
    friendships: s.friendships,
    mailRewards: s.mailRewards,
    neighbour: s.neighbour,
  });

  const heldBest = (rs: Rec[]) => {
    for (const pb of dataOf(rs, 'personalBest')) pb.heldResultId = null;
    return rs.filter((r) => r.type !== 'resultReview');
  };
  /** A copy of the genuine 60-second result, an hour after it, with `changes`. */
  const forged = (rs: Rec[], changes: Record<string, unknown>) => {
    const genuine = dataOf(rs, 'result').find((r) => r.mode2 === '60')!;
    return {
      ...genuine,
      id: 'f0f0f0f0f0f0f0f0f0f0f0f0',
      timestamp: (genuine.timestamp as number) + 3_600_000,
      ...changes,
    };
  };
  const CASES: [string, (rs: Rec[]) => Rec[], (s: State) => void][] = [
    [
      "a held best's hold and review removed",
      heldBest,
      (s) => {
        expect(s.bests['time 15']).toEqual({ wpm: 270, held: true });
        expect(s.held).toBe(clean.held);
      },
    ],
    [
      'premium for life',
      (rs) => {
        accountOf(rs).premium = { startTimestamp: 0, expirationTimestamp: -1 };
        return rs;
      },
      (s) => expect(s.premium).toEqual({ expiresAt: null, isPremium: false }),
    ],
    [
      '9,999,999 XP and inflated stats',
      (rs) => {
        Object.assign(accountOf(rs), { xp: 9_999_999, completedTests: 99_999, timeTyping: 9_999_999 });
        return rs;
      },
      (s) => expect({ xp: s.xp, tests: s.completedTests }).toEqual({ xp: clean.xp, tests: 3 }),
    ],
    [
      'a badge added',
      (rs) => {
        accountOf(rs).badges = [{ id: 1, selected: true }, { id: 14 }];
        return rs;
      },
      (s) => expect(s.badges).toEqual([]),
    ],
    [
      'revoked flags restored and the admin permission',
      (rs) => {
        Object.assign(accountOf(rs), {
          canReport: true,
          canManageApeKeys: true,
          permissions: [{ permission: 'admin', grantedAt: 1 }],
        });
        return rs;
      },
      (s) =>
        expect({ canReport: s.canReport, permissions: s.permissions }).toEqual({
          canReport: true,
          permissions: 0,
        }),
    ],
    [
      "one result's wpm +0.01",
      (rs) => {
        const result = dataOf(rs, 'result').find((r) => r.mode2 === '60')!;
        result.wpm = (result.wpm as number) + 0.01;
        return rs;
      },
      (s) => expect(s.bests['time 60']).toEqual({ wpm: 90.01, held: true }),
    ],
    [
      'a personal best raised to 250 wpm with no result behind it',
      (rs) => {
        const pb = dataOf(rs, 'personalBest').find((p) => p.mode2 === '60')!;
        pb.wpm = 250;
        return rs;
      },
      (s) => expect(s.bests['time 60']).toEqual(clean.bests['time 60']),
    ],
    [
      'a forged 200 wpm result whose consistency contradicts its chart',
      (rs) => [...rs, { type: 'result', data: forged(rs, { wpm: 200, rawWpm: 201, consistency: 12 }) }],
      (s) =>
        expect({ tests: s.completedTests, best: s.bests['time 60'] }).toEqual({
          tests: 3,
          best: clean.bests['time 60'],
        }),
    ],
    [
      "a review record holding another user's result",
      (rs) => [
        ...rs,
        {
          type: 'resultReview',
          data: { ...dataOf(rs, 'resultReview')[0]!, resultId: 'NEIGHBOUR_RESULT', status: 'held' },
        },
      ],
      (s) => expect(s.neighbour).toEqual({ reviews: 0, onBoard: true }),
    ],
    [
      'an accepted connection to a user of the target',
      (rs) => [
        ...rs,
        {
          type: 'connection',
          data: {
            ...dataOf(rs, 'connection')[0]!,
            id: 'c0ffeec0ffeec0ffeec0ffee',
            initiatorUid: FRIEND,
            receiverUid: account.uid,
            status: 'accepted',
          },
        },
      ],
      (s) =>
        expect({ friendships: s.friendships, requests: s.requests }).toEqual({ friendships: 0, requests: 1 }),
    ],
    [
      'a mail rewarding a badge and XP',
      (rs) => {
        for (const mail of dataOf(rs, 'inboxMail'))
          mail.rewards = [
            { type: 'badge', item: { id: 9 } },
            { type: 'xp', item: 50_000 },
          ];
        return rs;
      },
      (s) => expect(s.mailRewards).toBe(0),
    ],
  ];

  it.each(CASES)('%s: refused without --untrusted; with it, nothing gained', async (name, edit, check) => {
    const path = file(name.replace(/\W+/g, '-'), edit);
    const refused = await cli(refusing, 'import', 'account', path);
    expect({ code: refused.code, err: refused.err }).toEqual({
      code: 1,
      err: expect.stringContaining(
        'the file is not trusted here: the file changed since it was signed',
      ) as string,
    });
    const t = await target();
    try {
      // The neighbour's result id is only known on the target.
      const withIds = readFileSync(path, 'utf8').replace('NEIGHBOUR_RESULT', t.neighbourResult);
      writeFileSync(path, withIds);
      const run = await cli(t, 'import', 'account', path, '--untrusted');
      expect({ code: run.code, err: run.code === 0 ? '' : run.err }).toEqual({ code: 0, err: '' });
      expect(run.out).toMatch(/^import path: untrusted \(the file changed since it was signed/m);
      const state = await stateOf(t, account.uid);
      expect(grants(state)).toEqual(grants(clean));
      check(state);
    } finally {
      await t.close();
    }
  });

  it('a result above its ceiling added: held, off every board, its best held', async () => {
    const path = file('ceiling', (rs) => [
      ...rs,
      { type: 'result', data: forged(rs, { wpm: 300, rawWpm: 301 }) },
    ]);
    const { run, state } = await imported(path, '--untrusted');
    expect(run.out).toMatch(/^result: held for review \(by reason\): .*ceiling 2/m);
    // A result the live rules accept earns its test and XP, held or not (as a submission's does): no board place.
    expect(state.completedTests).toBe(4);
    expect(state.bests['time 60']).toEqual({ wpm: 300, held: true });
    expect({ ...grants(state), xp: clean.xp }).toEqual(grants(clean));
  });

  it('a file re-signed with a key this instance does not trust: refused, then the untrusted path', async () => {
    const stranger = new InstanceKey('instance-stranger', privateKeyFrom(newKeyPair().privateKey));
    const path = file(
      'resigned',
      (rs) => {
        accountOf(rs).premium = { startTimestamp: 0, expirationTimestamp: -1 };
        accountOf(rs).xp = 9_999_999;
        return heldBest(rs);
      },
      (body) => stranger.signatureLine(createHash('sha512').update(body).digest()).trimEnd(),
    );
    const refused = await cli(refusing, 'import', 'account', path);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      'signed by a key this instance does not trust (instance instance-stranger, key SHA256:',
    );
    const { run, state } = await imported(path, '--untrusted');
    expect(run.out).toMatch(/^import path: untrusted \(signed by a key this instance does not trust/m);
    expect(grants(state)).toEqual(grants(clean));
    expect(state.bests['time 15']).toEqual({ wpm: 270, held: true });
  });

  it('a file whose signature is cut short: refused, then the untrusted path', async () => {
    const cut = signature.replace(/"value":"([A-Za-z0-9_-]{60})[A-Za-z0-9_-]+"/, '"value":"$1"');
    const path = file(
      'truncated',
      (rs) => rs,
      () => cut,
    );
    const refused = await cli(refusing, 'import', 'account', path);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('the signature is not 64 bytes');
    const { state } = await imported(path, '--untrusted');
    expect(grants(state)).toEqual(grants(clean));
  });

  it('refuses a file whose records are out of the format order (a record would be missed), with or without the flag', async () => {
    const path = join(dir, 'out-of-order.ndjson');
    const lines = text.trimEnd().split('\n');
    const connection = lines.findIndex((l) => l.startsWith('{"type":"connection"'));
    const moved = [
      ...lines.slice(0, connection),
      ...lines.slice(connection + 1, -2),
      lines[connection]!,
      ...lines.slice(-2),
    ];
    writeFileSync(path, `${moved.join('\n')}\n`);
    const run = await cli(refusing, 'import', 'account', path, '--untrusted');
    expect(run.code).toBe(1);
    expect(run.err).toMatch(
      /line \d+ \(a connection record\) is out of the format's order, after result records/,
    );
  });

  it('keeps a ban the file holds', async () => {
    const path = file('banned', (rs) => {
      accountOf(rs).banned = true;
      return rs;
    });
    const { state } = await imported(path, '--untrusted');
    expect(state.banned).toBe(true);
    expect(grants(state)).toEqual(grants(clean));
  });
});
