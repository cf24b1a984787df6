import { Writable } from 'node:stream';
import { kogasa } from '../../../src/modules/results/domain/anti-cheat/result-figures';
import { createUser } from '../../support/factories';
import { genuineBodies } from '../../support/genuine-results';
import { createTestApp, type TestApp } from '../../support/test-app';
import { clientResult, resultCount, signed, submit, type ResultBody } from './result-factory';

const METRICS_TOKEN = 'anti-cheat-metrics-token-0123456789';
const METRICS_AUTH = `Bearer ${METRICS_TOKEN}`;
const MINUTE = 60_000;

type Line = Record<string, unknown> & { msg?: string };

/** Collects the JSON lines the app writes. */
class LineSink extends Writable {
  lines: Line[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString().split('\n'))
      if (line.trim()) this.lines.push(JSON.parse(line) as Line);
    done();
  }
}

const sum = (values: unknown) => (values as number[]).reduce((a, b) => a + b, 0);
const scaledTo = (values: number[], total: number) => {
  const s = sum(values);
  return values.map((v) => (v * total) / s);
};
/** New key spacing with the keyConsistency the client would derive from it: only the timing itself is forged. */
const withSpacing = (result: ResultBody, keySpacing: number[]): ResultBody => ({
  ...result,
  keySpacing,
  keyConsistency: kogasa(keySpacing, true),
});

/** Issue 23: the open anti-cheat on POST /results, against the real client's results and forged ones. */
describe('POST /results: the open anti-cheat', () => {
  let t: TestApp;
  const sink = new LineSink();

  beforeAll(async () => {
    t = await createTestApp({
      now: Date.UTC(2026, 10, 26, 8, 0),
      env: { logLevel: 'warn', metrics: { host: '127.0.0.1', token: METRICS_TOKEN } },
      logDestination: sink,
    });
  });
  afterAll(() => t.close());

  const fresh = async () => (await createUser(t.db)).uid;
  /** A consistent timed minute at `wpm` (inside the bot check's gate from 131 wpm). */
  const minute = (wpm: number) =>
    clientResult({ mode2: '60', testDuration: 60, wpm, rawWpm: wpm + 1, acc: 97, afkDuration: 0 });
  const refused = async (result: ResultBody, status: number, message: string) => {
    const uid = await fresh();
    const res = await submit(t, uid, signed(result, uid));
    expect({ status: res.status, body: res.body }).toEqual({ status, body: { message, data: null } });
    expect(await resultCount(t.db, uid)).toBe(0);
  };
  const SENSELESS = "Result data doesn't make sense";
  const BOT = 'Possible bot detected';

  describe("the original client's genuine results (test/fixtures/original-client-results)", () => {
    const bodies = genuineBodies();
    beforeAll(async () => {
      // Two accounts typed them (the `*-uncorrected-*` ones the second): each hash covers its account's uid.
      for (const uid of new Set(bodies.map((b) => b.body.result.uid as string)))
        await createUser(t.db, { uid });
    });

    it('are all there: the 32 bodies of both accounts, 8 of them with mistakes left uncorrected', () => {
      expect(bodies).toHaveLength(32);
      expect(bodies.filter((b) => b.file.includes('-uncorrected-'))).toHaveLength(8);
    });

    it.each(bodies.map((b) => [b.file, b] as const))('%s is saved', async (_file, genuine) => {
      t.clock.advance(5 * MINUTE);
      const res = await submit(t, genuine.body.result.uid as string, genuine.body.result);
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Result saved');
      expect(res.body.data).toEqual(
        expect.objectContaining({ isPb: expect.any(Boolean) as boolean, xp: 0, streak: expect.any(Number) }),
      );
    });
  });

  describe('forged results', () => {
    it("the issue's result: wpm 290 on time 60, charStats of 90 wpm, every spacing 41 ms adding up to 3 s", async () => {
      const base = clientResult({ mode2: '60', testDuration: 60, wpm: 90, rawWpm: 90, acc: 100 });
      const keySpacing = Array.from({ length: 73 }, () => 41);
      await refused({ ...withSpacing(base, keySpacing), wpm: 290 }, 463, SENSELESS);
    });

    it('made-up stats: wpm above what its characters make', async () => {
      await refused({ ...minute(90), wpm: 140 }, 463, SENSELESS);
    });

    it('constant timing: every key spacing the same (465)', async () => {
      const base = minute(145);
      const spacing = base.keySpacing as number[];
      await refused(
        withSpacing(
          base,
          spacing.map(() => sum(spacing) / spacing.length),
        ),
        465,
        BOT,
      );
    });

    it('stretched timing: key timings adding up to 3 s of the minute, or scaled by 0.9', async () => {
      const base = minute(120);
      await refused(withSpacing(base, scaledTo(base.keySpacing as number[], 3000)), 463, SENSELESS);
      await refused(
        withSpacing(
          base,
          (base.keySpacing as number[]).map((v) => v * 0.9),
        ),
        463,
        SENSELESS,
      );
    });

    it("copied timing: a genuine 90 wpm minute's key timings on a 140 wpm result is held, not ranked", async () => {
      // 438 key presses for 700 characters: a phone keyboard inserting whole words can do that, so it is held for
      // a moderator rather than refused; the result is saved and kept off every board.
      const genuine = genuineBodies().find((b) => b.file === 'time-60-90wpm-1.json')!.body.result;
      const base = { ...minute(140), keyDuration: genuine.keyDuration };
      const uid = await fresh();
      const res = await submit(t, uid, signed(withSpacing(base, genuine.keySpacing as number[]), uid));
      expect(res.status).toBe(200);
      const review = await t.db
        .selectFrom('result_reviews')
        .select(['reasons', 'status'])
        .where('uid', '=', uid)
        .executeTakeFirstOrThrow();
      expect(review.status).toBe('held');
      expect(review.reasons).toEqual([
        { check: 'keyCount', figures: { keyPresses: 438, charTotal: expect.any(Number) as number } },
      ]);
    });

    it('copied timing: one block of timings repeated to the length needed (465)', async () => {
      const base = minute(145);
      const spacing = base.keySpacing as number[];
      const repeated = scaledTo(
        spacing.map((_, i) => spacing[i % 40] as number),
        sum(spacing),
      );
      await refused(withSpacing(base, repeated), 465, BOT);
    });

    it("a chart that contradicts the result: a 90 wpm minute's chart on a 140 wpm result", async () => {
      const slower = minute(90);
      await refused(
        { ...minute(140), chartData: slower.chartData, consistency: slower.consistency },
        463,
        SENSELESS,
      );
    });

    it('missing measurements: saved but held off the boards; no key timings inside the bot gate: 464', async () => {
      const held = async (result: ResultBody, missing: string) => {
        const uid = await fresh();
        const res = await submit(t, uid, signed(result, uid));
        expect(res.status).toBe(200);
        const insertedId = (res.body.data as { insertedId: string }).insertedId;
        const review = await t.db
          .selectFrom('result_reviews')
          .select(['reasons', 'status'])
          .where('result_id', '=', insertedId)
          .executeTakeFirstOrThrow();
        expect(review).toEqual({
          reasons: [{ check: 'measurements', figures: { missing } }],
          status: 'held',
        });
      };
      const { keySpacing: _k, ...withoutKeys } = minute(100);
      await held(withoutKeys, 'keySpacing');
      const { chartData: _c, ...withoutChart } = minute(100);
      await held(withoutChart, 'chartData');
      // The original's rule inside results.botCheck (time, over 130 wpm, under 122 s): key timings are required.
      const { keySpacing: _g, ...fastWithoutKeys } = minute(140);
      await refused(fastWithoutKeys, 464, 'Missing key data');
    });

    it('the same results pass with the open checks switched off (results.antiCheat.enabled)', async () => {
      await t.configure({ results: { antiCheat: { enabled: false } } });
      try {
        const uid = await fresh();
        expect((await submit(t, uid, signed({ ...minute(90), wpm: 140 }, uid))).status).toBe(200);
      } finally {
        await t.configure({ results: { antiCheat: { enabled: true } } });
      }
    });
  });

  describe('configuration', () => {
    it('shows every check with its switch and thresholds in GET /configuration/schema', async () => {
      const admin = await createUser(t.db, { permissions: ['admin'] });
      const res = await t.request<{ data: { fields: Record<string, { fields: Record<string, unknown> }> } }>(
        'GET',
        '/configuration/schema',
        { auth: await t.bearer(admin.uid) },
      );
      expect(res.status).toBe(200);
      const antiCheat = res.body.data.fields.results?.fields.antiCheat as { fields: Record<string, unknown> };
      expect(Object.keys(antiCheat.fields)).toEqual([
        'enabled',
        'composedInputLanguages',
        'measurements',
        'speed',
        'accuracy',
        'keyCount',
        'timeline',
        'chart',
        'bot',
        'review',
      ]);
      expect(antiCheat.fields.speed).toEqual({
        type: 'object',
        label: 'Speed',
        fields: {
          enabled: { type: 'boolean', label: 'Enabled' },
          toleranceWpm: { type: 'number', label: 'Tolerance Wpm', min: 0 },
          tolerancePercent: { type: 'number', label: 'Tolerance Percent', min: 0, max: 100 },
          holdMargin: { type: 'number', label: 'Hold Margin', min: 1 },
        },
      });
    });
  });

  describe('observable', () => {
    it('logs every refusal with its check and figures, and counts it by check', async () => {
      const before = sink.lines.length;
      await refused({ ...minute(90), wpm: 140 }, 463, SENSELESS);
      const line = sink.lines.slice(before).find((l) => l.msg === 'result refused by anti-cheat');
      expect(line).toMatchObject({
        check: 'speed',
        status: 463,
        figures: { wpm: 140, wpmFromChars: 90, tolerance: 0.9 },
      });
      const constant = minute(145);
      const spacing = constant.keySpacing as number[];
      await refused(
        withSpacing(
          constant,
          spacing.map(() => sum(spacing) / spacing.length),
        ),
        465,
        BOT,
      );
      const { keyDuration: _d, ...withoutDurations } = minute(140);
      await refused(withoutDurations, 464, 'Missing key data');
      const uid = await fresh();
      expect((await submit(t, uid, signed(minute(100), uid))).status).toBe(200);
      const metrics = (await t.request('GET', '/metrics', { auth: METRICS_AUTH })).text;
      expect(metrics).toMatch(/result_submissions_total\{outcome="463:speed"\} [1-9]/);
      expect(metrics).toMatch(/result_submissions_total\{outcome="465:variation"\} [1-9]/);
      expect(metrics).toMatch(/result_submissions_total\{outcome="464:keyData"\} [1-9]/);
      expect(metrics).toMatch(/result_submissions_total\{outcome="200"\} [1-9]/);
      expect(metrics).not.toMatch(/result_submissions_total\{outcome="463"\}/);
    });
  });
});
