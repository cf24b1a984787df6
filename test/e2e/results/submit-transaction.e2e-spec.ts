import { sql } from 'kysely';
import { ResultHooks, type ResultSavedEvent } from '../../../src/modules/results/result-hooks';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import { clientResult, createTag, resultCount, signed, submit, submitOk, userRow } from './result-factory';

const SECOND = 1000;
const DAY = 86_400_000;

describe('POST /results: one transaction, concurrency and post-commit hooks', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      now: Date.UTC(2026, 10, 25, 23, 30),
      env: {
        databasePoolMax: 20,
        rateLimit: { globalPerMinute: 100_000, overrides: { resultsAdd: { max: 1000 } } },
      },
      configuration: {
        users: { xp: { enabled: true, gainMultiplier: 1, maxDailyBonus: 100, minDailyBonus: 5 } },
      },
    });
  });
  afterAll(() => t.close());

  /** Everything a submission may change for a user, to compare before and after. */
  async function snapshot(uid: string) {
    const [user, results, pbs, tagPbs, activity, mail] = await Promise.all([
      userRow(t.db, uid),
      resultCount(t.db, uid),
      t.db.selectFrom('personal_bests').selectAll().where('uid', '=', uid).execute(),
      t.db.selectFrom('tag_personal_bests').selectAll().where('uid', '=', uid).execute(),
      t.db.selectFrom('test_activity').selectAll().where('uid', '=', uid).execute(),
      t.db.selectFrom('inbox_mail').selectAll().where('uid', '=', uid).execute(),
    ]);
    return { user, results, pbs, tagPbs, activity, mail };
  }

  /** A trigger that fails the statement for one user only, so other tests in this database are unaffected. */
  async function failFor(uid: string, table: 'results' | 'inbox_mail', when: 'AFTER' | 'BEFORE') {
    const name = `fail_${table}_${uid}`;
    await sql
      .raw(
        `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF NEW.uid = '${uid}' THEN RAISE EXCEPTION 'injected failure'; END IF;
           RETURN NEW;
         END $$;
         CREATE TRIGGER ${name} ${when} INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}();`,
      )
      .execute(t.db);
    return () => sql.raw(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}();`).execute(t.db);
  }

  describe('failure injected inside the transaction', () => {
    it('a failure after the result row was inserted leaves no result, no XP, no stats, no PB change', async () => {
      const { uid } = await createUser(t.db, { xp: 500 });
      const tag = await createTag(t.db, uid);
      await submitOk(t, uid, { wpm: 70, tags: [tag] });
      t.clock.advance(60 * SECOND);
      const before = await snapshot(uid);

      const restore = await failFor(uid, 'results', 'AFTER');
      try {
        const res = await submit(t, uid, signed(clientResult({ wpm: 99, tags: [tag] }), uid));
        expect(res.status).toBe(500);
        expect(res.body.message).toBe('Internal server error');
      } finally {
        await restore();
      }
      expect(await snapshot(uid)).toEqual(before);
      expect(before.results).toBe(1);

      // The same result goes through once the fault is gone.
      const ok = await submit(t, uid, signed(clientResult({ wpm: 99, tags: [tag] }), uid));
      expect(ok.status).toBe(200);
      expect(ok.body.data).toMatchObject({ isPb: true, tagPbs: [tag] });
    });

    it('a failure in a later statement (the badge mail) rolls back the stored result too', async () => {
      const { uid } = await createUser(t.db);
      await t.db
        .updateTable('users')
        .set({ streak_length: 364, streak_max_length: 364, streak_last_result_at: t.clock.now() - DAY })
        .where('uid', '=', uid)
        .execute();
      const before = await snapshot(uid);
      const restore = await failFor(uid, 'inbox_mail', 'BEFORE');
      try {
        const res = await submit(t, uid, signed(clientResult(), uid));
        expect(res.status).toBe(500);
      } finally {
        await restore();
      }
      expect(await snapshot(uid)).toEqual(before);
      const ok = await submitOk(t, uid);
      expect(ok.streak).toBe(365);
      expect((await snapshot(uid)).mail).toHaveLength(1);
    });
  });

  describe('concurrency', () => {
    it('50 parallel submissions by one user: exactly one accepted, 49 answered 462', async () => {
      const { uid } = await createUser(t.db);
      const auth = await t.bearer(uid);
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          t.request('POST', '/results', {
            auth,
            body: { result: signed(clientResult({ wpm: 60 + i / 10 }), uid) },
          }),
        ),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect(statuses.filter((s) => s === 462)).toHaveLength(49);
      for (const r of responses.filter((r) => r.status === 462)) {
        expect(r.body.message).toBe('Invalid result spacing');
      }
      expect(await resultCount(t.db, uid)).toBe(1);
      const user = await userRow(t.db, uid);
      expect(user.completed_tests).toBe(1);
      expect(user.started_tests).toBe(3);
    });

    it('20 users submitting 5 results each, all at once: consistent totals, no deadlock, no 500', async () => {
      const users = await Promise.all(Array.from({ length: 20 }, () => createUser(t.db, { xp: 1000 })));
      const statuses: number[] = [];
      const gained = new Map<string, number>();

      await Promise.all(
        users.map(async ({ uid }, u) => {
          for (let i = 0; i < 5; i += 1) {
            const res = await submit(
              t,
              uid,
              signed(clientResult({ wpm: 50 + u + i / 10, acc: 90 + i }), uid),
            );
            statuses.push(res.status);
            if (res.status === 200) gained.set(uid, (gained.get(uid) ?? 0) + res.body.data.xp);
            // Each user waits out its own test before the next one (the clock only moves forward).
            t.clock.advance(40 * SECOND);
          }
        }),
      );

      expect(statuses).toHaveLength(100);
      expect(statuses.every((s) => s === 200)).toBe(true);
      for (const { uid } of users) {
        expect(await resultCount(t.db, uid)).toBe(5);
        const user = await userRow(t.db, uid);
        expect(user.completed_tests).toBe(5);
        expect(user.started_tests).toBe(15);
        expect(user.xp).toBe(1000 + (gained.get(uid) ?? 0));
        const activity = await t.db
          .selectFrom('test_activity')
          .select((eb) => eb.fn.sum<number>('tests').as('tests'))
          .where('uid', '=', uid)
          .executeTakeFirstOrThrow();
        expect(Number(activity.tests)).toBe(5);
      }
      expect([...gained.values()].every((xp) => xp > 0)).toBe(true);
    });
  });

  describe('post-commit hooks (the leaderboard seam)', () => {
    it('run after commit with the saved result, add their fields to the response, and cannot fail it', async () => {
      const hooks = t.app.get(ResultHooks);
      const events: ResultSavedEvent[] = [];
      hooks.afterResultSaved('test-ranks', async (event) => {
        events.push(event);
        // Committed already: visible from another connection.
        const stored = await t.db
          .selectFrom('results')
          .select('id')
          .where('id', '=', event.resultId)
          .execute();
        return { dailyLeaderboardRank: stored.length, weeklyXpLeaderboardRank: 7 };
      });
      hooks.afterResultSaved('test-broken', () => Promise.reject(new Error('redis down')));

      const { uid, name } = await createUser(t.db, { timeTyping: 9000 });
      t.clock.advance(60 * SECOND);
      const data = await submitOk(t, uid, { wpm: 88 });
      expect(data).toMatchObject({ dailyLeaderboardRank: 1, weeklyXpLeaderboardRank: 7, isPb: true });
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        uid,
        resultId: data.insertedId,
        isPb: true,
        xp: data.xp,
        timestamp: Math.floor(t.clock.now() / 1000) * 1000,
        result: { wpm: 88, mode: 'time', mode2: '30', language: 'english' },
        account: { name, banned: false, lbOptOut: false, timeTypingBefore: 9000, streak: 1 },
      });
      expect(await resultCount(t.db, uid)).toBe(1);
    });
  });
});
