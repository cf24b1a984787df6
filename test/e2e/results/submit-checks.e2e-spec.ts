import { AntiCheatRegistry, ACCEPT_ALL, type AntiCheat } from '../../../src/modules/results/anti-cheat';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import {
  clientResult,
  resultCount,
  signed,
  submit,
  submitOk,
  userRow,
  type ResultBody,
} from './result-factory';

const MINUTE = 60_000;

describe('POST /results: the checks, each with its status and message', () => {
  let t: TestApp;
  let antiCheat: AntiCheatRegistry;

  beforeAll(async () => {
    t = await createTestApp({
      env: { rateLimit: { globalPerMinute: 10_000, overrides: { resultsAdd: { max: 1000 } } } },
    });
    antiCheat = t.app.get(AntiCheatRegistry);
  });
  afterAll(() => t.close());
  afterEach(() => antiCheat.use(ACCEPT_ALL));

  async function freshUser(overrides: Parameters<typeof createUser>[1] = {}) {
    const { uid } = await createUser(t.db, overrides);
    return uid;
  }

  /** Submits and expects a refusal that left the user and their results untouched. */
  async function expectRefused(uid: string, result: ResultBody, status: number, message: string) {
    const before = await userRow(t.db, uid);
    const count = await resultCount(t.db, uid);
    const res = await submit(t, uid, result);
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ message, data: null });
    expect(await resultCount(t.db, uid)).toBe(count);
    expect(await userRow(t.db, uid)).toEqual(before);
  }

  describe('460 Test is too short', () => {
    it.each<[string, ResultBody]>([
      ['time 10', { mode2: '10', testDuration: 10 }],
      ['words 5', { mode: 'words', mode2: '5', testDuration: 4 }],
      ['infinite time after 12 s', { mode2: '0', testDuration: 12 }],
      ['abandoned after 10 s', { mode2: '60', testDuration: 10, bailedOut: true }],
      ['zen of 14 s', { mode: 'zen', mode2: 'zen', testDuration: 14 }],
      ['custom without custom text', { mode: 'custom', mode2: 'custom' }],
    ])('%s', async (_label, overrides) => {
      const uid = await freshUser();
      await expectRefused(uid, signed(clientResult(overrides), uid), 460, 'Test is too short');
    });

    it('is checked before the hash', async () => {
      const uid = await freshUser();
      const result = { ...signed(clientResult({ mode2: '10', testDuration: 10 }), uid), hash: 'wrong' };
      await expectRefused(uid, result, 460, 'Test is too short');
    });
  });

  describe('400 Accuracy too low', () => {
    it('refuses accuracy below 75', async () => {
      const uid = await freshUser();
      await expectRefused(uid, signed(clientResult({ acc: 74.9 }), uid), 400, 'Accuracy too low');
    });

    it('is checked before the hash', async () => {
      const uid = await freshUser();
      await expectRefused(
        uid,
        { ...signed(clientResult({ acc: 60 }), uid), hash: 'x' },
        400,
        'Accuracy too low',
      );
    });

    it('accepts 75 exactly', async () => {
      const uid = await freshUser();
      expect((await submit(t, uid, signed(clientResult({ acc: 75 }), uid))).status).toBe(200);
    });

    it('lets users who opted out of leaderboards keep low-accuracy results (no XP below 50)', async () => {
      await t.configure({ users: { xp: { enabled: true, gainMultiplier: 1 } } });
      try {
        const uid = await freshUser({ lbOptOut: true });
        const data = await submitOk(t, uid, { acc: 30 });
        expect(data).toMatchObject({ xp: 0, xpBreakdown: {}, dailyXpBonus: false });
        expect(await resultCount(t.db, uid)).toBe(1);
      } finally {
        await t.configure({ users: { xp: { enabled: false, gainMultiplier: 0 } } });
      }
    });
  });

  describe('461 Incorrect result hash', () => {
    it('refuses a hash that does not match the result', async () => {
      const uid = await freshUser();
      const result = { ...signed(clientResult(), uid), wpm: 200 };
      await expectRefused(uid, result, 461, 'Incorrect result hash');
    });

    it("refuses a hash made with another user's uid", async () => {
      const uid = await freshUser();
      const other = await freshUser();
      await expectRefused(uid, signed(clientResult(), other), 461, 'Incorrect result hash');
    });

    it('skips the check when results.objectHashCheckEnabled is off', async () => {
      await t.configure({ results: { objectHashCheckEnabled: false } });
      try {
        const uid = await freshUser();
        const res = await submit(t, uid, { ...signed(clientResult(), uid), hash: 'anything' });
        expect(res.status).toBe(200);
      } finally {
        await t.configure({ results: { objectHashCheckEnabled: true } });
      }
    });
  });

  describe('400 funbox checks', () => {
    it('Duplicate funboxes', async () => {
      const uid = await freshUser();
      await expectRefused(
        uid,
        signed(clientResult({ funbox: ['mirror', 'mirror'] }), uid),
        400,
        'Duplicate funboxes',
      );
    });

    it('Impossible funbox combination', async () => {
      const uid = await freshUser();
      await expectRefused(
        uid,
        signed(clientResult({ funbox: ['58008', 'gibberish'] }), uid),
        400,
        'Impossible funbox combination',
      );
    });

    it('accepts a possible combination', async () => {
      const uid = await freshUser();
      expect(
        (await submit(t, uid, signed(clientResult({ funbox: ['mirror', 'gibberish'] }), uid))).status,
      ).toBe(200);
    });
  });

  describe("463 Result data doesn't make sense", () => {
    it('refuses more time away than the test lasted', async () => {
      const uid = await freshUser();
      await expectRefused(
        uid,
        signed(clientResult({ testDuration: 30, afkDuration: 31 }), uid),
        463,
        "Result data doesn't make sense",
      );
    });

    it('refuses what a plugged-in anti-cheat rejects, and passes it the client version', async () => {
      const seen: (string | undefined)[] = [];
      antiCheat.use({
        ...ACCEPT_ALL,
        validateResult: (result, context) => {
          seen.push(context.clientVersion);
          return result.wpm < 100;
        },
      });
      const uid = await freshUser();
      const res = await t.request('POST', '/results', {
        auth: await t.bearer(uid),
        body: { result: signed(clientResult({ wpm: 120 }), uid) },
        headers: { 'x-client-version': '25.11.0' },
      });
      expect(res.status).toBe(463);
      expect(res.body.message).toBe("Result data doesn't make sense");
      expect(seen).toEqual(['25.11.0']);
      expect(await resultCount(t.db, uid)).toBe(0);
      expect((await submit(t, uid, signed(clientResult({ wpm: 90 }), uid))).status).toBe(200);
    });
  });

  describe('462 Invalid result spacing', () => {
    it('refuses a result sooner after the last one than the test could take', async () => {
      const uid = await freshUser();
      await submitOk(t, uid); // testDuration 30 + incomplete 4 → next result 33 s later at the earliest
      t.clock.advance(32_000);
      await expectRefused(uid, signed(clientResult({ wpm: 81 }), uid), 462, 'Invalid result spacing');
      t.clock.advance(1_000);
      expect((await submit(t, uid, signed(clientResult({ wpm: 82 }), uid))).status).toBe(200);
    });

    it('does not apply to the first result', async () => {
      const uid = await freshUser();
      expect((await submit(t, uid, signed(clientResult(), uid))).status).toBe(200);
    });
  });

  describe('464 Missing key data and 465 Possible bot detected', () => {
    const fast = (overrides: ResultBody = {}) => clientResult({ wpm: 140, rawWpm: 141, ...overrides });

    it('464 when a fast timed result lacks key timings', async () => {
      const uid = await freshUser();
      await expectRefused(uid, signed(fast({ keySpacing: 'toolong' }), uid), 464, 'Missing key data');
      const withoutDurations = fast();
      delete withoutDurations.keyDuration;
      await expectRefused(uid, signed(withoutDurations, uid), 464, 'Missing key data');
    });

    it('465 when a plugged-in anti-cheat judges the key timings inhuman (on top of the open checks)', async () => {
      const checked: number[] = [];
      // A private rule stricter than the open ones: no key spacing under 20 ms on average.
      const strict: AntiCheat = {
        ...ACCEPT_ALL,
        validateKeys: (result, keys) => {
          checked.push(result.wpm);
          return keys.spacing.average >= 20 && result.wpm < 150;
        },
      };
      antiCheat.use(strict);
      const uid = await freshUser();
      await expectRefused(uid, signed(fast({ wpm: 160, rawWpm: 161 }), uid), 465, 'Possible bot detected');
      expect(checked).toEqual([160]);
      expect((await submit(t, uid, signed(fast(), uid))).status).toBe(200);
    });

    it('skips the key check below the configured speed, in long tests, outside time mode and when opted out', async () => {
      antiCheat.use({ ...ACCEPT_ALL, validateKeys: () => false });
      const uid = await freshUser();
      const optedOut = await freshUser({ lbOptOut: true });
      for (const [who, overrides] of [
        [uid, { wpm: 130 }],
        [uid, { mode2: '120', testDuration: 122 }],
        [uid, { mode: 'words', mode2: '50' }],
        [optedOut, {}],
      ] as const) {
        t.clock.advance(5 * MINUTE);
        const res = await submit(t, who, signed(fast(overrides), who));
        expect(res.status).toBe(200);
      }
    });

    it('uses the thresholds of results.botCheck', async () => {
      antiCheat.use({ ...ACCEPT_ALL, validateKeys: () => false });
      await t.configure({ results: { botCheck: { minWpm: 50 } } });
      try {
        const uid = await freshUser();
        await expectRefused(uid, signed(clientResult({ wpm: 60 }), uid), 465, 'Possible bot detected');
      } finally {
        await t.configure({ results: { botCheck: { minWpm: 130 } } });
      }
    });
  });

  describe('466 Duplicate result', () => {
    it('refuses a hash among the last remembered ones', async () => {
      const uid = await freshUser();
      const result = signed(clientResult(), uid);
      expect((await submit(t, uid, result)).status).toBe(200);
      t.clock.advance(5 * MINUTE);
      await expectRefused(uid, result, 466, 'Duplicate result');
    });

    it('remembers only users.lastHashesCheck.maxHashes hashes', async () => {
      await t.configure({ users: { lastHashesCheck: { maxHashes: 2 } } });
      try {
        const uid = await freshUser();
        const first = signed(clientResult({ wpm: 70 }), uid);
        for (const result of [
          first,
          signed(clientResult({ wpm: 71 }), uid),
          signed(clientResult({ wpm: 72 }), uid),
        ]) {
          t.clock.advance(5 * MINUTE);
          expect((await submit(t, uid, result)).status).toBe(200);
        }
        expect((await userRow(t.db, uid)).last_result_hashes).toHaveLength(2);
        t.clock.advance(5 * MINUTE);
        expect((await submit(t, uid, first)).status).toBe(200);
      } finally {
        await t.configure({ users: { lastHashesCheck: { maxHashes: 10 } } });
      }
    });

    it('accepts repeats when users.lastHashesCheck is off', async () => {
      await t.configure({ users: { lastHashesCheck: { enabled: false } } });
      try {
        const uid = await freshUser();
        const result = signed(clientResult(), uid);
        expect((await submit(t, uid, result)).status).toBe(200);
        t.clock.advance(5 * MINUTE);
        expect((await submit(t, uid, result)).status).toBe(200);
        expect((await userRow(t.db, uid)).last_result_hashes).toEqual([]);
      } finally {
        await t.configure({ users: { lastHashesCheck: { enabled: true } } });
      }
    });

    it('spacing is judged before duplicates', async () => {
      const uid = await freshUser();
      const result = signed(clientResult(), uid);
      expect((await submit(t, uid, result)).status).toBe(200);
      await expectRefused(uid, result, 462, 'Invalid result spacing');
    });
  });

  describe('500 from a broken XP configuration', () => {
    it('refuses to store a negative XP gain and changes nothing', async () => {
      await t.configure({ users: { xp: { enabled: true, gainMultiplier: -1 } } });
      try {
        const uid = await freshUser();
        const before = await userRow(t.db, uid);
        const res = await submit(t, uid, signed(clientResult(), uid));
        expect(res.status).toBe(500);
        expect(res.body.message).toBe('Calculated XP is negative');
        expect(await resultCount(t.db, uid)).toBe(0);
        expect(await userRow(t.db, uid)).toEqual(before);
      } finally {
        await t.configure({ users: { xp: { enabled: false, gainMultiplier: 0 } } });
      }
    });
  });
});
