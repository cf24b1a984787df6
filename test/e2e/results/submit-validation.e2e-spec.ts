import { formatApeKey } from '../../../src/common/auth/ape-key-authenticator';
import { createUser } from '../../support/factories';
import { createTestApp, type TestApp } from '../../support/test-app';
import {
  clientResult,
  minimalResult,
  resultCount,
  signed,
  signedWithoutUid,
  type ResultBody,
} from './result-factory';

const APE_KEY = `ApeKey ${formatApeKey('abcdef0123456789', 'S'.repeat(32))}`;

describe('POST /results: authentication, switches and the result schema', () => {
  let t: TestApp;
  let uid: string;
  // Each accepted result moves the clock past the spacing check.
  const nextSlot = () => t.clock.advance(5 * 60_000);

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        rateLimit: { globalPerMinute: 10_000, overrides: { resultsAdd: { max: 1000 } } },
      },
    });
    ({ uid } = await createUser(t.db));
  });
  afterAll(() => t.close());

  const post = async (result: unknown) =>
    t.request('POST', '/results', { auth: await t.bearer(uid), body: { result } });

  describe('authentication', () => {
    it('refuses a request without a token: 401 Unauthorized', async () => {
      const res = await t.request('POST', '/results', { body: { result: signed(clientResult(), uid) } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthorized', data: null });
    });

    it('refuses an ApeKey: 401 This endpoint does not accept ApeKeys', async () => {
      const res = await t.request('POST', '/results', {
        auth: APE_KEY,
        body: { result: signed(clientResult(), uid) },
      });
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('This endpoint does not accept ApeKeys');
    });

    it('refuses a valid token of an unknown user: 404 User not found', async () => {
      const res = await t.request('POST', '/results', {
        auth: await t.bearer('nobody-here'),
        body: { result: signed(clientResult(), 'nobody-here') },
      });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('User not found');
    });
  });

  describe('saving switched off (results.savingEnabled false)', () => {
    afterAll(() => t.configure({ results: { savingEnabled: true } }));

    it('answers 503 even before looking at the body, and stores nothing', async () => {
      await t.configure({ results: { savingEnabled: false } });
      for (const body of [{}, { result: signed(clientResult(), uid) }]) {
        const res = await t.request('POST', '/results', { auth: await t.bearer(uid), body });
        expect(res.status).toBe(503);
        expect(res.body).toEqual({ message: 'Results are not being saved at this time.', data: null });
      }
      expect(await resultCount(t.db, uid)).toBe(0);
    });
  });

  describe('accepted shapes', () => {
    it("accepts the original client's full result", async () => {
      nextSlot();
      const res = await post(signed(clientResult(), uid));
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Result saved');
    });

    it("takes only the spec's required fields (hashed with the caller's uid), held off the boards for review", async () => {
      nextSlot();
      const res = await post(signedWithoutUid(minimalResult(), uid));
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Result saved');
      // Nothing vouches for a result without the client's measurements, so a moderator sees it before any board does.
      const review = await t.db
        .selectFrom('result_reviews')
        .select('reasons')
        .where('result_id', '=', (res.body.data as { insertedId: string }).insertedId)
        .executeTakeFirstOrThrow();
      expect(review.reasons).toEqual([
        {
          check: 'measurements',
          figures: { missing: 'charStats,charTotal,chartData,keySpacing,keyDuration' },
        },
      ]);
    });

    it.each<[string, ResultBody]>([
      ['correctedEverything', { correctedEverything: true }],
      ['mode2 sent as a number', { mode2: 60, testDuration: 60 }],
      ['zen with mode2 "zen"', { mode: 'zen', mode2: 'zen' }],
      ['quote with a quote id', { mode: 'quote', mode2: '1234', quoteLength: 2 }],
      [
        'custom with custom text',
        {
          mode: 'custom',
          mode2: 'custom',
          customText: {
            textLen: 40,
            mode: 'repeat',
            pipeDelimiter: false,
            limit: { mode: 'word', value: 40 },
          },
        },
      ],
      // The client sends "toolong" for tests over 122 s only.
      [
        'chart data and key timings too long to send',
        {
          mode2: '180',
          testDuration: 180,
          chartData: 'toolong',
          keySpacing: 'toolong',
          keyDuration: 'toolong',
        },
      ],
      ['a challenge', { challenge: 'accuracyExpert' }],
      // Every word typed wrong: nothing correct, yet characters typed.
      ['a wpm of 0', { wpm: 0, rawWpm: 40, acc: 80 }],
    ])('accepts %s', async (_label, overrides) => {
      nextSlot();
      const res = await post(signed(clientResult(overrides), uid));
      expect(res.status).toBe(200);
    });
  });

  describe('422 Invalid request data schema', () => {
    const refuses = async (body: unknown, expectedError: string) => {
      const res = await t.request('POST', '/results', { auth: await t.bearer(uid), body });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.data).toBeNull();
      expect(res.body.validationErrors).toContain(expectedError);
    };

    it('without a result', async () => {
      await refuses({}, '"result" should not be null or undefined');
    });

    it('with a result that is not an object', async () => {
      await refuses({ result: 'fast' }, '"result" must be an object');
    });

    it('with an unknown key next to the result', async () => {
      await refuses(
        { result: signed(clientResult(), uid), extra: 1 },
        "Unrecognized key(s) in object: 'extra'",
      );
    });

    it('with an unknown key inside the result', async () => {
      await refuses(
        { result: signed(clientResult({ cheated: false }), uid) },
        `"result" Unrecognized key(s) in object: 'cheated'`,
      );
    });

    it.each([
      'wpm',
      'rawWpm',
      'acc',
      'mode',
      'mode2',
      'language',
      'timestamp',
      'testDuration',
      'consistency',
    ])('without the required field %s', async (field) => {
      const result = signed(clientResult(), uid);
      delete result[field];
      const res = await post(result);
      expect(res.status).toBe(422);
      expect(res.body.validationErrors?.some((e) => e.startsWith(`"result.${field}" `))).toBe(true);
    });

    it('without a hash', async () => {
      const { hash: _hash, ...result } = signed(clientResult(), uid);
      await refuses({ result }, '"result.hash" must be a string');
    });

    it.each<[string, ResultBody, string]>([
      ['wpm above 420', { wpm: 420.5 }, '"result.wpm" must not be greater than 420'],
      ['negative wpm', { wpm: -1 }, '"result.wpm" must not be less than 0'],
      ['wpm as text', { wpm: '80' }, '"result.wpm" must be a number conforming to the specified constraints'],
      ['rawWpm above 420', { rawWpm: 421 }, '"result.rawWpm" must not be greater than 420'],
      ['acc above 100', { acc: 100.1 }, '"result.acc" must not be greater than 100'],
      ['negative acc', { acc: -0.1 }, '"result.acc" must not be less than 0'],
      ['consistency above 100', { consistency: 101 }, '"result.consistency" must not be greater than 100'],
      ['testDuration below 1', { testDuration: 0.5 }, '"result.testDuration" must not be less than 1'],
      ['a fractional timestamp', { timestamp: 1.5 }, '"result.timestamp" must be an integer number'],
      [
        'an unknown mode',
        { mode: 'mood' },
        '"result.mode" must be one of the following values: time, words, quote, zen, custom',
      ],
      [
        'mode2 text in time mode',
        { mode2: 'sixty' },
        '"result.mode2" must be a number as text (e.g. "60") for time, words and quote, "zen" for zen and "custom" for custom',
      ],
      [
        'mode2 "zen" in time mode',
        { mode2: 'zen' },
        '"result.mode2" must be a number as text (e.g. "60") for time, words and quote, "zen" for zen and "custom" for custom',
      ],
      [
        'a number mode2 in zen mode',
        { mode: 'zen', mode2: '15' },
        '"result.mode2" must be a number as text (e.g. "60") for time, words and quote, "zen" for zen and "custom" for custom',
      ],
      ['an unknown language', { language: 'klingon_2k' }, '"result.language" must be a supported language'],
      ['an unknown funbox', { funbox: ['teleport'] }, '"result.funbox" must be a known funbox'],
      [
        'more than 15 funboxes',
        { funbox: Array(16).fill('mirror') },
        '"result.funbox" must contain no more than 15 elements',
      ],
      [
        'an unknown difficulty',
        { difficulty: 'insane' },
        '"result.difficulty" must be one of the following values: normal, expert, master',
      ],
      ['punctuation as text', { punctuation: 'yes' }, '"result.punctuation" must be a boolean value'],
      ['punctuation null', { punctuation: null }, '"result.punctuation" must be a boolean value'],
      [
        'key consistency null',
        { keyConsistency: null },
        '"result.keyConsistency" must be a number conforming to the specified constraints',
      ],
      ['tags null', { tags: null }, '"result.tags" must be an array'],
      ['a negative restart count', { restartCount: -1 }, '"result.restartCount" must not be less than 0'],
      ['negative afk time', { afkDuration: -1 }, '"result.afkDuration" must not be less than 0'],
      [
        'charStats of three numbers',
        { charStats: [1, 2, 3] },
        '"result.charStats" must contain at least 4 elements',
      ],
      [
        'an incomplete test that is an array',
        { incompleteTests: [[]] },
        '"result.incompleteTests" each value in incompleteTests must be an object',
      ],
      [
        'an incomplete test with acc above 100',
        { incompleteTests: [{ acc: 101, seconds: 3 }] },
        '"result.incompleteTests.0.acc" must not be greater than 100',
      ],
      [
        'an incomplete test with an unknown key',
        { incompleteTests: [{ acc: 90, seconds: 3, wpm: 50 }] },
        `"result.incompleteTests.0" Unrecognized key(s) in object: 'wpm'`,
      ],
      [
        'chart data with too many points',
        { chartData: { wpm: Array(123).fill(1), burst: [1], err: [0] } },
        '"result.chartData" must be "toolong" or { wpm, burst, err }, each a list of at most 122 non-negative numbers',
      ],
      [
        'chart data with an extra list',
        { chartData: { wpm: [1], burst: [1], err: [0], raw: [1] } },
        '"result.chartData" must be "toolong" or { wpm, burst, err }, each a list of at most 122 non-negative numbers',
      ],
      [
        'negative key timings',
        { keySpacing: [10, -1] },
        '"result.keySpacing" must be a list of non-negative numbers or "toolong"',
      ],
      [
        'a hash with symbols',
        { hash: 'abc-123' },
        '"result.hash" must match /^[a-zA-Z0-9_]+$/ regular expression',
      ],
      ['a tag id with symbols', { tags: ['not an id'] }, '"result.tags" must be a valid id'],
      [
        'an unknown challenge',
        { challenge: 'cheatCode' },
        expect.stringContaining('"result.challenge"') as never,
      ],
      ['a quote length of 4', { quoteLength: 4 }, '"result.quoteLength" must not be greater than 3'],
      [
        'custom text with an unknown limit mode',
        {
          customText: { textLen: 1, mode: 'repeat', pipeDelimiter: false, limit: { mode: 'page', value: 1 } },
        },
        '"result.customText.limit.mode" must be one of the following values: word, time, section',
      ],
    ])('with %s', async (_label, overrides, expectedError) => {
      const result = { ...signed(clientResult(), uid), ...overrides };
      const res = await post(result);
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Invalid request data schema');
      expect(res.body.validationErrors).toEqual(expect.arrayContaining([expectedError]));
    });

    it('stores nothing for refused bodies', async () => {
      const before = await resultCount(t.db, uid);
      await post({ ...signed(clientResult(), uid), wpm: 999 });
      expect(await resultCount(t.db, uid)).toBe(before);
    });
  });

  describe('rate limit (class resultsAdd, per user)', () => {
    it('answers 429 once the class is used up', async () => {
      const limited = await createTestApp({
        stores: t.stores,
        env: { rateLimit: { globalPerMinute: 10_000, overrides: { resultsAdd: { max: 2 } } } },
      });
      try {
        const { uid: other } = await createUser(limited.db);
        const otherAuth = await limited.bearer(other);
        const statuses: number[] = [];
        for (let i = 0; i < 3; i += 1) {
          limited.clock.advance(10 * 60_000);
          const res = await limited.request('POST', '/results', {
            auth: otherAuth,
            body: { result: signed(clientResult({ wpm: 80 + i }), other) },
          });
          statuses.push(res.status);
          if (res.status === 429)
            expect(res.body.message).toBe('Request limit reached, please try again later.');
        }
        expect(statuses).toEqual([200, 200, 429]);
      } finally {
        await limited.close();
      }
    });
  });
});
