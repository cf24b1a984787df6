import { keyStats } from '../../../src/modules/results/domain/key-stats';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import {
  clientResult,
  createTag,
  signed,
  submit,
  submitOk,
  userRow,
  type ResultBody,
} from './result-factory';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
// 2026-11-22 12:00 UTC
const START = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('POST /results: what an accepted result stores', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      now: START,
      env: { rateLimit: { globalPerMinute: 10_000, overrides: { resultsAdd: { max: 1000 } } } },
    });
  });
  afterAll(() => t.close());

  const nextSlot = () => t.clock.advance(5 * MINUTE);
  const personalBests = (uid: string) =>
    t.db.selectFrom('personal_bests').selectAll().where('uid', '=', uid).orderBy('wpm').execute();

  describe('response and stored result', () => {
    it('answers Result saved with the spec fields and stores the result at server time', async () => {
      const { uid, name } = await createUser(t.db);
      t.clock.set(START + 1234); // stored in whole seconds
      const result = signed(clientResult({ timestamp: 42 }), uid);
      const res = await submit(t, uid, result);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Result saved');
      const data = res.body.data;
      expect(data).toEqual({
        isPb: true,
        tagPbs: [],
        insertedId: expect.stringMatching(/^[0-9a-f]{24}$/) as string,
        xp: 0,
        xpBreakdown: {},
        dailyXpBonus: false,
        streak: 1,
      });

      const stored = await t.request('GET', `/results/id/${data.insertedId}`, { auth: await t.bearer(uid) });
      expect(stored.status).toBe(200);
      expect(stored.body.data).toEqual({
        _id: data.insertedId,
        uid,
        name,
        wpm: 80,
        rawWpm: 82,
        // The client's measurements of the typed test, as sent (key timings as their mean and deviation).
        charStats: result.charStats,
        acc: 96,
        mode: 'time',
        mode2: '30',
        timestamp: START + 1000,
        testDuration: 30,
        consistency: result.consistency,
        keyConsistency: result.keyConsistency,
        chartData: result.chartData,
        keySpacingStats: keyStats(result.keySpacing as number[]),
        keyDurationStats: keyStats(result.keyDuration as number[]),
        restartCount: 2,
        incompleteTestSeconds: 4,
        afkDuration: 1,
        isPb: true,
      });
    });

    it('stores non-default settings and leaves the client-only fields out', async () => {
      const { uid } = await createUser(t.db);
      const data = await submitOk(t, uid, {
        language: 'german',
        difficulty: 'expert',
        punctuation: true,
        numbers: true,
        lazyMode: true,
        blindMode: true,
        funbox: ['mirror'],
        challenge: 'accuracyExpert',
      });
      const row = await t.db
        .selectFrom('results')
        .selectAll()
        .where('id', '=', data.insertedId)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        uid,
        language: 'german',
        difficulty: 'expert',
        punctuation: true,
        numbers: true,
        lazy_mode: true,
        blind_mode: true,
        funbox: ['mirror'],
      });
      expect(Object.keys(row)).not.toEqual(expect.arrayContaining(['hash']));
    });
  });

  describe('personal bests', () => {
    it('first result of a bucket is a PB; faster is; a tie or slower is not', async () => {
      const { uid } = await createUser(t.db);
      const wpms: [number, boolean][] = [
        [80, true],
        [80, false],
        [79, false],
        [85.5, true],
      ];
      for (const [wpm, isPb] of wpms) {
        nextSlot();
        expect((await submitOk(t, uid, { wpm })).isPb).toBe(isPb);
      }
      const pbs = await personalBests(uid);
      expect(pbs).toHaveLength(1);
      const best = await t.db
        .selectFrom('results')
        .select(['raw_wpm', 'consistency'])
        .where('uid', '=', uid)
        .where('wpm', '=', 85.5)
        .executeTakeFirstOrThrow();
      expect(pbs[0]).toMatchObject({
        mode: 'time',
        mode2: '30',
        language: 'english',
        difficulty: 'normal',
        punctuation: false,
        numbers: false,
        lazy_mode: false,
        wpm: 85.5,
        acc: 96,
        raw: best.raw_wpm,
        consistency: best.consistency,
        timestamp: t.clock.now() - (t.clock.now() % 1000),
      });
    });

    it('keeps one record per bucket: numbers, punctuation, language, difficulty, lazy mode, mode2', async () => {
      const { uid } = await createUser(t.db);
      const variants: ResultBody[] = [
        {},
        { numbers: true },
        { punctuation: true },
        { language: 'spanish' },
        { difficulty: 'master' },
        { lazyMode: true },
        { mode2: '60', testDuration: 60 },
      ];
      for (const [i, variant] of variants.entries()) {
        nextSlot();
        // Slower each time: only a new bucket makes it a PB.
        expect((await submitOk(t, uid, { wpm: 90 - i, ...variant })).isPb).toBe(true);
      }
      expect(await personalBests(uid)).toHaveLength(variants.length);
      nextSlot();
      expect((await submitOk(t, uid, { wpm: 89, numbers: true })).isPb).toBe(false);
    });

    it.each<[string, ResultBody]>([
      ['quote mode', { mode: 'quote', mode2: '512', quoteLength: 1 }],
      ['an abandoned test', { bailedOut: true }],
      ['a funbox without PBs', { funbox: ['58008'] }],
      ['stop on letter with mistakes', { stopOnLetter: true }],
    ])('never for %s', async (_label, overrides) => {
      const { uid } = await createUser(t.db);
      expect((await submitOk(t, uid, overrides)).isPb).toBe(false);
      expect(await personalBests(uid)).toHaveLength(0);
    });

    it('zen and custom results get PBs under "zen" and "custom"', async () => {
      const { uid } = await createUser(t.db);
      expect((await submitOk(t, uid, { mode: 'zen', mode2: 'zen' })).isPb).toBe(true);
      nextSlot();
      const custom = {
        mode: 'custom',
        mode2: 'custom',
        customText: { textLen: 30, mode: 'random', pipeDelimiter: false, limit: { mode: 'word', value: 30 } },
      };
      expect((await submitOk(t, uid, custom)).isPb).toBe(true);
      expect((await personalBests(uid)).map((pb) => pb.mode2).sort()).toEqual(['custom', 'zen']);
    });
  });

  describe('tag personal bests', () => {
    it("sets the bests of the caller's tags, ignores and drops anyone else's", async () => {
      const { uid } = await createUser(t.db);
      const { uid: other } = await createUser(t.db);
      const mine = await createTag(t.db, uid);
      const alsoMine = await createTag(t.db, uid);
      const theirs = await createTag(t.db, other);

      const first = await submitOk(t, uid, { wpm: 70, tags: [mine, theirs, 'deadbeef'] });
      expect(first.tagPbs).toEqual([mine]);
      const stored = await t.db
        .selectFrom('results')
        .select('tags')
        .where('id', '=', first.insertedId)
        .executeTakeFirstOrThrow();
      expect(stored.tags).toEqual([mine]);

      // Not a global PB (slower), yet a first best for the second tag.
      nextSlot();
      const second = await submitOk(t, uid, { wpm: 65, tags: [mine, alsoMine] });
      expect(second.isPb).toBe(false);
      expect(second.tagPbs).toEqual([alsoMine]);

      nextSlot();
      const third = await submitOk(t, uid, { wpm: 75, tags: [mine, alsoMine] });
      expect(third.isPb).toBe(true);
      expect(third.tagPbs.sort()).toEqual([mine, alsoMine].sort());

      const tagBests = await t.db
        .selectFrom('tag_personal_bests')
        .select(['tag_id', 'uid', 'wpm'])
        .orderBy('tag_id')
        .execute();
      expect(tagBests).toEqual(
        [
          { tag_id: mine, uid, wpm: 75 },
          { tag_id: alsoMine, uid, wpm: 75 },
        ].sort((a, b) => a.tag_id.localeCompare(b.tag_id)),
      );
    });

    it('gives no tag PBs when the result cannot be a PB', async () => {
      const { uid } = await createUser(t.db);
      const tag = await createTag(t.db, uid);
      expect((await submitOk(t, uid, { tags: [tag], bailedOut: true })).tagPbs).toEqual([]);
    });
  });

  describe('typing stats and test activity', () => {
    it('adds completed and started tests and the time typed', async () => {
      const { uid } = await createUser(t.db, { timeTyping: 100 });
      await submitOk(t, uid, { testDuration: 30, incompleteTestSeconds: 4, afkDuration: 1, restartCount: 2 });
      nextSlot();
      await submitOk(t, uid, {
        wpm: 81,
        testDuration: 30,
        incompleteTestSeconds: 0,
        afkDuration: 0.5,
        restartCount: 0,
      });
      const user = await userRow(t.db, uid);
      expect(user.completed_tests).toBe(2);
      expect(user.started_tests).toBe(3 + 1);
      expect(user.time_typing).toBeCloseTo(100 + 33 + 29.5, 6);
    });

    it('saturates started tests at the int4 maximum instead of failing the submission', async () => {
      const { uid } = await createUser(t.db);
      await submitOk(t, uid, { restartCount: 2_147_483_647 });
      nextSlot();
      await submitOk(t, uid, { wpm: 81, restartCount: 2_147_483_647 });
      const user = await userRow(t.db, uid);
      expect(user.completed_tests).toBe(2);
      expect(user.started_tests).toBe(2_147_483_647);
    });

    it("counts tests per UTC day of the server's time", async () => {
      const { uid } = await createUser(t.db);
      t.clock.set(Date.UTC(2026, 11, 1, 23, 50));
      await submitOk(t, uid, { wpm: 70 });
      t.clock.advance(5 * MINUTE);
      await submitOk(t, uid, { wpm: 71 });
      t.clock.advance(10 * MINUTE); // 00:05 the next day
      await submitOk(t, uid, { wpm: 72 });
      const activity = await t.db
        .selectFrom('test_activity')
        .select(['day', 'tests'])
        .where('uid', '=', uid)
        .orderBy('day')
        .execute();
      const day = Math.floor(Date.UTC(2026, 11, 1) / DAY);
      expect(activity).toEqual([
        { day, tests: 2 },
        { day: day + 1, tests: 1 },
      ]);
    });
  });

  describe('streak across days (manual clock)', () => {
    it('grows on consecutive days, stays within a day, restarts after a gap', async () => {
      const { uid } = await createUser(t.db);
      t.clock.set(Date.UTC(2026, 11, 10, 21, 0));
      const streaks: number[] = [];
      for (const step of [0, 2 * HOUR, 2 * HOUR, 22 * HOUR, 2 * DAY]) {
        t.clock.advance(step);
        streaks.push((await submitOk(t, uid, { wpm: 60 + streaks.length })).streak);
      }
      // 21:00 → 1, 23:00 → 1, 01:00 next day → 2, 23:00 that day → 2, two days later → 1
      expect(streaks).toEqual([1, 1, 2, 2, 1]);
      const user = await userRow(t.db, uid);
      expect(user.streak_length).toBe(1);
      expect(user.streak_max_length).toBe(2);
      expect(user.streak_last_result_at).toBe(t.clock.now());
      expect(user.last_result_at).toBe(t.clock.now());
    });

    it("uses the user's hour offset for day boundaries", async () => {
      const { uid } = await createUser(t.db);
      await t.db.updateTable('users').set({ streak_hour_offset: 10 }).where('uid', '=', uid).execute();
      const streaks: number[] = [];
      for (const at of [
        Date.UTC(2026, 11, 20, 21, 0),
        Date.UTC(2026, 11, 21, 9, 0),
        Date.UTC(2026, 11, 21, 10, 0),
      ]) {
        t.clock.set(at);
        streaks.push((await submitOk(t, uid, { wpm: 60 + streaks.length })).streak);
      }
      expect(streaks).toEqual([1, 1, 2]);
    });
  });

  describe('XP', () => {
    beforeAll(() =>
      t.configure({
        users: {
          xp: {
            enabled: true,
            gainMultiplier: 1,
            maxDailyBonus: 100,
            minDailyBonus: 10,
            funboxBonus: 1,
            streak: { enabled: true, maxStreakDays: 10, maxStreakMultiplier: 1 },
          },
        },
      }),
    );
    afterAll(() => t.configure({ users: { xp: { enabled: false, gainMultiplier: 0 } } }));

    it('returns the breakdown, adds XP to the total, and a daily bonus once per UTC day', async () => {
      const { uid } = await createUser(t.db, { xp: 1000 });
      t.clock.set(Date.UTC(2026, 11, 24, 10, 0));
      // acc 100, time 30, afk 0, no incomplete: base 60, full accuracy 30, streak 1/10 → 0.1 → 6.
      const plain = { acc: 100, afkDuration: 0, incompleteTestSeconds: 0, incompleteTests: [] };
      const first = await submitOk(t, uid, plain);
      expect(first).toMatchObject({
        xp: 96,
        dailyXpBonus: false,
        xpBreakdown: { base: 60, fullAccuracy: 30, streak: 6, accPenalty: 0 },
      });

      nextSlot();
      const sameDay = await submitOk(t, uid, { ...plain, wpm: 81 });
      expect(sameDay.dailyXpBonus).toBe(false);
      expect(sameDay.xpBreakdown.daily).toBeUndefined();

      t.clock.advance(DAY);
      const nextDay = await submitOk(t, uid, { ...plain, wpm: 82 });
      // streak 2 → 0.2 → 12; daily = 5% of 1192 = 60
      expect(nextDay).toMatchObject({
        xp: 60 + 30 + 12 + 60,
        dailyXpBonus: true,
        xpBreakdown: { base: 60, fullAccuracy: 30, streak: 12, accPenalty: 0, daily: 60 },
        streak: 2,
      });
      expect((await userRow(t.db, uid)).xp).toBe(1000 + first.xp + sameDay.xp + nextDay.xp);

      nextSlot();
      expect((await submitOk(t, uid, { ...plain, wpm: 83 })).dailyXpBonus).toBe(false);
    });

    it('counts corrected mistakes (sent or derived from charStats), funboxes and incomplete tests', async () => {
      const { uid } = await createUser(t.db);
      // Typed with a wrong character left in (raw above wpm), yet sent as corrected: the flag sent wins.
      const sent = await submitOk(t, uid, {
        acc: 90,
        afkDuration: 0,
        correctedEverything: true,
        funbox: ['read_ahead_hard'],
        incompleteTests: [{ acc: 75, seconds: 10 }],
        incompleteTestSeconds: 10,
      });
      expect(sent.xpBreakdown).toEqual({
        base: 60,
        corrected: 15,
        funbox: 180,
        streak: 6,
        incomplete: 5,
        accPenalty: 52,
      });
      nextSlot();
      // Nothing wrong left in charStats (raw equals wpm): corrected everything, derived.
      const derived = await submitOk(t, uid, { acc: 90, wpm: 81, rawWpm: 81, afkDuration: 0 });
      expect(derived.xpBreakdown.corrected).toBe(15);
    });

    it('earns nothing in zen mode', async () => {
      const { uid } = await createUser(t.db, { xp: 50 });
      const data = await submitOk(t, uid, { mode: 'zen', mode2: 'zen' });
      expect(data).toMatchObject({ xp: 0, xpBreakdown: {}, dailyXpBonus: false });
      expect((await userRow(t.db, uid)).xp).toBe(50);
    });
  });

  describe('365-day streak badge (id 14)', () => {
    const badgeMails = (uid: string) =>
      t.db
        .selectFrom('inbox_mail')
        .select(['subject', 'body', 'rewards', 'read'])
        .where('uid', '=', uid)
        .execute();

    async function userOnDay364(badges: unknown[] = []) {
      const { uid } = await createUser(t.db);
      t.clock.set(Date.UTC(2027, 0, 10, 12, 0));
      await t.db
        .updateTable('users')
        .set({
          streak_length: 364,
          streak_max_length: 364,
          streak_last_result_at: t.clock.now() - DAY,
          inventory_badges: JSON.stringify(badges),
        })
        .where('uid', '=', uid)
        .execute();
      return uid;
    }

    it('mails the badge when the streak reaches 365', async () => {
      const uid = await userOnDay364();
      expect((await submitOk(t, uid)).streak).toBe(365);
      expect(await badgeMails(uid)).toEqual([
        {
          subject: 'Badge',
          body: 'Congratulations for reaching a 365 day streak! You have been awarded a special badge. Now, go touch some grass.',
          rewards: [{ type: 'badge', item: { id: 14 } }],
          read: false,
        },
      ]);
      // Later results the same day and the next do not mail it again while it waits unread.
      nextSlot();
      await submitOk(t, uid, { wpm: 81 });
      t.clock.advance(DAY);
      expect((await submitOk(t, uid, { wpm: 82 })).streak).toBe(366);
      expect(await badgeMails(uid)).toHaveLength(1);
    });

    it('does not mail a user who owns the badge', async () => {
      const uid = await userOnDay364([{ id: 14, selected: true }]);
      await submitOk(t, uid);
      expect(await badgeMails(uid)).toHaveLength(0);
    });

    it('mails again once the earlier mail was read without the badge being kept', async () => {
      const uid = await userOnDay364();
      await submitOk(t, uid);
      await t.db
        .updateTable('inbox_mail')
        .set({ read: true, rewards: '[]' })
        .where('uid', '=', uid)
        .execute();
      nextSlot();
      await submitOk(t, uid, { wpm: 81 });
      expect(await badgeMails(uid)).toHaveLength(2);
    });

    it('sends nothing while the inbox is turned off', async () => {
      await t.configure({ users: { inbox: { enabled: false } } });
      try {
        const uid = await userOnDay364();
        expect((await submitOk(t, uid)).streak).toBe(365);
        expect(await badgeMails(uid)).toHaveLength(0);
      } finally {
        await t.configure({ users: { inbox: { enabled: true } } });
      }
    });
  });
});
