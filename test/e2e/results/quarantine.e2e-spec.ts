import { runCli } from '../../../src/cli/run-cli';
import { SubmissionOutcomesService } from '../../../src/modules/results/outcomes/submission-outcomes.service';
import { QuarantineService } from '../../../src/modules/results/quarantine/quarantine.service';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { clientResult, resultCount, signed, submit, type ResultBody } from './result-factory';

const MINUTE = 60_000;
const DAY = 86_400_000;

/**
 * Issue 31, item 5: nothing refused is lost. A result the anti-cheat refuses is kept (body, check, figures) within its
 * bounds, listed and replayed by the operator, counted in the refusal rates; a failure to keep it never changes the
 * answer.
 */
describe('the quarantine of refused results', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      configuration: { results: { quarantine: { maxPerUser: 3, maxTotal: 5, retentionDays: 2 } } },
    });
  });
  afterAll(() => t.close());

  const rows = (uid?: string) => {
    let query = t.db
      .selectFrom('refused_results')
      .select(['uid', 'refused_at', 'status', 'check_name', 'figures', 'body', 'client_version']);
    if (uid) query = query.where('uid', '=', uid);
    return query.orderBy('refused_at').execute();
  };
  /** A minute of 60 wpm typing whose wpm says 90: the characters do not make it (463 speed). */
  const forged = (): ResultBody => ({ ...clientResult({ mode2: '60', testDuration: 60, wpm: 60 }), wpm: 90 });
  const refuse = async (uid: string, body: ResultBody = forged()) => {
    t.clock.advance(5 * MINUTE);
    const res = await submit(t, uid, signed(body, uid));
    expect(res.status).toBe(463);
    return res;
  };

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const env = { DATABASE_URL: t.stores.databaseUrl, REDIS_URL: t.stores.redisUrl, LOG_LEVEL: 'silent' };
    const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, env);
    // A command prints its answer as one block: its lines, one per entry.
    return { code, out: out.join('\n').split('\n'), err: err.slice(1) };
  }

  it('keeps a refused result with the body as received, its check and its figures, and saves nothing else', async () => {
    const { uid } = await createUser(t.db);
    const body = signed(forged(), uid);
    t.clock.advance(5 * MINUTE);
    const res = await submit(t, uid, body, undefined);
    expect(res.status).toBe(463);
    expect(await resultCount(t.db, uid)).toBe(0);
    const kept = await rows(uid);
    expect(kept).toEqual([
      {
        uid,
        refused_at: t.clock.now(),
        status: 463,
        check_name: 'speed',
        figures: { wpm: 90, wpmFromChars: 60, tolerance: 0.6 },
        body,
        client_version: null,
      },
    ]);
  });

  it('keeps what a rule refuses out of it: too short, low accuracy, a wrong hash are the original rules, not checks', async () => {
    const { uid } = await createUser(t.db);
    t.clock.advance(5 * MINUTE);
    expect((await submit(t, uid, signed(clientResult({ mode2: '10', testDuration: 10 }), uid))).status).toBe(
      460,
    );
    t.clock.advance(5 * MINUTE);
    expect((await submit(t, uid, { ...signed(clientResult(), uid), wpm: 61 })).status).toBe(461);
    expect(await rows(uid)).toEqual([]);
  });

  it('keeps at most maxPerUser per account: the oldest go first', async () => {
    const { uid } = await createUser(t.db);
    const at: number[] = [];
    for (let i = 0; i < 5; i++) {
      await refuse(uid);
      at.push(t.clock.now());
    }
    expect((await rows(uid)).map((r) => r.refused_at)).toEqual(at.slice(2));
  });

  it('keeps at most maxTotal in all, whoever sent them: a flood cannot fill the disk', async () => {
    const flood = await Promise.all([createUser(t.db), createUser(t.db), createUser(t.db)]);
    for (const { uid } of flood) for (let i = 0; i < 3; i++) await refuse(uid);
    const all = await rows();
    expect(all).toHaveLength(5);
    // The five newest: the last account's three and the second's two newest.
    expect(all.map((r) => r.uid)).toEqual([
      flood[1]!.uid,
      flood[1]!.uid,
      flood[2]!.uid,
      flood[2]!.uid,
      flood[2]!.uid,
    ]);
  });

  it('drops what is older than retentionDays (the hourly job, or the next refusal)', async () => {
    const { uid } = await createUser(t.db);
    await refuse(uid);
    t.clock.advance(3 * DAY);
    expect(await t.app.get(QuarantineService).purgeExpired()).toBeGreaterThan(0);
    expect(await rows(uid)).toEqual([]);
  });

  it('answers the refusal even when it cannot be kept (the table unreachable): logged, never a 500', async () => {
    const { uid } = await createUser(t.db);
    await t.db.schema.alterTable('refused_results').renameTo('refused_results_away').execute();
    try {
      const res = await refuse(uid);
      expect(res.body).toEqual({ message: "Result data doesn't make sense", data: null });
    } finally {
      await t.db.schema.alterTable('refused_results_away').renameTo('refused_results').execute();
    }
  });

  it('lists refused results, replays them against changed thresholds, and shows the refusal rates', async () => {
    const { uid } = await createUser(t.db);
    // Slightly off (held when within the margin, so past it: 1.5 tolerances would hold), and far off.
    await refuse(uid, { ...clientResult({ mode2: '60', testDuration: 60, wpm: 60 }), wpm: 62 });
    await refuse(uid);

    const listed = await cli('results', 'refused', '--uid', uid, '--check', 'speed');
    expect(listed.code).toBe(0);
    expect(listed.out.at(-1)).toBe('2 listed');
    expect(listed.out[0]).toMatch(
      new RegExp(`^[0-9a-f]{24}  ${uid}  \\S+  463:speed  time 60 english  62 wpm, acc`),
    );

    const before = await cli('results', 'replay', '--dry-run', '--uid', uid);
    expect(before.out).toEqual([
      'speed               2 refused: 0 would be accepted, 0 held for review, 2 still refused',
      '0 of 2 would pass today (dry run: nothing changed)',
    ]);
    // A wider tolerance today: the result 2 wpm off passes, the one 30 wpm off is still refused.
    await t.configure({ results: { antiCheat: { speed: { toleranceWpm: 2.5 } } } });
    const after = await cli('results', 'replay', '--dry-run', '--uid', uid);
    expect(after.out).toEqual([
      'speed               2 refused: 1 would be accepted, 0 held for review, 1 still refused',
      '1 of 2 would pass today (dry run: nothing changed)',
    ]);
    expect(await rows(uid)).toHaveLength(2);
    const refusedAt = (await rows(uid))[0]!.refused_at;

    // Reinstated through the import's write path: a result of the account at the time it was refused, counted as a
    // submission would be (a test, its personal best), and out of the quarantine; a second run finds nothing to do.
    const testsBefore = await t.db
      .selectFrom('users')
      .select('completed_tests')
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    const reinstated = await cli('results', 'replay', '--uid', uid);
    expect(reinstated.code).toBe(0);
    expect(reinstated.out).toContain('1 of 2 reinstated (1 pass today)');
    const stored = await t.db
      .selectFrom('results')
      .select(['wpm', 'timestamp'])
      .where('uid', '=', uid)
      .execute();
    expect(stored).toEqual([{ wpm: 62, timestamp: Math.floor(refusedAt / 1000) * 1000 }]);
    const testsAfter = await t.db
      .selectFrom('users')
      .select('completed_tests')
      .where('uid', '=', uid)
      .executeTakeFirstOrThrow();
    expect(testsAfter.completed_tests).toBe(testsBefore.completed_tests + 1);
    const best = await t.db.selectFrom('personal_bests').select('wpm').where('uid', '=', uid).execute();
    expect(best).toEqual([{ wpm: 62 }]);
    expect((await rows(uid)).map((r) => (r.body as { wpm: number }).wpm)).toEqual([90]);
    expect((await cli('results', 'replay', '--uid', uid)).out).toContain('0 of 1 reinstated (0 pass today)');
    await t.configure({ results: { antiCheat: { speed: { toleranceWpm: 0.5 } } } });

    await t.app.get(SubmissionOutcomesService).flush();
    const admin = await createUser(t.db, { permissions: ['admin'] });
    const api = await t.request<{ data: { lastHour: { submissions: number; checks: { check: string }[] } } }>(
      'GET',
      '/admin/result/rates',
      { auth: await t.bearer(admin.uid) },
    );
    expect(api.status).toBe(200);
    expect(api.body.data.lastHour.submissions).toBeGreaterThan(0);
    expect(api.body.data.lastHour.checks).toContainEqual({
      check: 'speed',
      refused: expect.any(Number) as number,
      held: 0,
      refusalRate: expect.any(Number) as number,
    });
    // The CLI reads the same counters at the real time (this app's clock has moved on): its form, not its figures.
    const rates = await cli('results', 'rates');
    expect(rates.code).toBe(0);
    expect(rates.out[0]).toMatch(/^last hour: \d+ submissions judged$/);
    expect(rates.out).toContainEqual(expect.stringMatching(/^last 24 hours: \d+ submissions judged$/));
  });

  it('is in the account export, and leaves with the account', async () => {
    const { uid } = await createUser(t.db);
    await refuse(uid);
    const res = await t.request<string>('GET', '/users/export', { auth: await t.bearer(uid) });
    expect(res.status).toBe(200);
    const records = String(res.text)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type?: string; data?: Record<string, unknown> });
    const refused = records.filter((r) => r.type === 'refusedResult');
    expect(refused).toHaveLength(1);
    expect(refused[0]!.data).toMatchObject({ status: 463, check: 'speed', body: { wpm: 90 } });
    expect(refused[0]!.data!.body).not.toHaveProperty('hash');
    await t.db.deleteFrom('users').where('uid', '=', uid).execute();
    expect(await rows(uid)).toEqual([]);
  });
});
